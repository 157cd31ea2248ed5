/// A surface of knobs and toggles run by one store, with at most one value editor open.
///
/// Each control keeps its own state and behaviour; the surface reaches them by identifier
/// (``ForEachReducer``), which also scopes each control's effect identifiers, and when a knob
/// opens its editor it closes the one that was open.
public struct ControlSurfaceFeature: Reducer {
    /// The surface's state.
    public struct State: Sendable, Equatable {
        /// The knobs, in drawing order.
        public var knobs: IdentifiedArray<KnobFeature.State>
        /// The toggles, in drawing order.
        public var toggles: IdentifiedArray<ToggleFeature.State>

        /// Creates a surface.
        public init(knobs: [KnobFeature.State] = [], toggles: [ToggleFeature.State] = []) {
            self.knobs = IdentifiedArray(knobs)
            self.toggles = IdentifiedArray(toggles)
        }

        /// The identifier of the knob whose editor is open, or `nil`.
        public var editingKnobID: UInt64? {
            knobs.first { $0.editor != nil }?.id
        }

        /// The open editor, or `nil`: the surface's one editor.
        public var editor: ValueEditorState? {
            knobs.first { $0.editor != nil }?.editor
        }
    }

    /// What happened on the surface.
    public enum Action: Sendable, Equatable {
        /// Something happened to the knob with an identifier.
        case knobs(IdentifiedAction<UInt64, KnobFeature.Action>)
        /// Something happened to the toggle with an identifier.
        case toggles(IdentifiedAction<UInt64, ToggleFeature.Action>)
        /// The surface appeared: every control starts observing.
        case task(Theme)
        /// The surface went away: every control stops observing.
        case stopValueObservation

        /// `action` happened to the knob `id`.
        public static func knob(_ id: UInt64, _ action: KnobFeature.Action) -> Action {
            .knobs(.element(id: id, action: action))
        }

        /// `action` happened to the toggle `id`.
        public static func toggle(_ id: UInt64, _ action: ToggleFeature.Action) -> Action {
            .toggles(.element(id: id, action: action))
        }
    }

    /// The knobs' behaviour.
    public var knob: KnobFeature
    /// The toggles' behaviour.
    public var toggle: ToggleFeature

    /// Creates the surface reducer.
    public init(knob: KnobFeature = KnobFeature(), toggle: ToggleFeature = ToggleFeature()) {
        self.knob = knob
        self.toggle = toggle
    }

    private var knobs: ForEachReducer<State, Action, KnobFeature> {
        ForEachReducer(
            elements: \State.knobs,
            extract: { (action: Action) in if case .knobs(let knob) = action { knob } else { nil } },
            embed: Action.knobs, scope: "knob", element: knob)
    }

    private var toggles: ForEachReducer<State, Action, ToggleFeature> {
        ForEachReducer(
            elements: \State.toggles,
            extract: { (action: Action) in if case .toggles(let toggle) = action { toggle } else { nil } },
            embed: Action.toggles, scope: "toggle", element: toggle)
    }

    /// Forwards to the controls and keeps a single editor open.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .knobs(.element(let id, _)):
            let previouslyEditing = state.editingKnobID
            let effect = knobs.reduce(into: &state, action: action)
            guard state.knobs[id: id]?.editor != nil, let previous = previouslyEditing, previous != id else {
                return effect
            }
            return .merge(effect, .send(.knob(previous, .editorDismissed(nil))))
        case .toggles:
            return toggles.reduce(into: &state, action: action)
        case .task(let theme):
            return .merge(
                knobs.reduceAll(into: &state, action: .task(theme)), toggles.reduceAll(into: &state, action: .task))
        case .stopValueObservation:
            return .merge(
                knobs.reduceAll(into: &state, action: .stopValueObservation),
                toggles.reduceAll(into: &state, action: .stopValueObservation))
        }
    }
}
