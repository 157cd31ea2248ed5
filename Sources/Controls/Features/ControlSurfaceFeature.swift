/// A surface of knobs and toggles run by one store, with at most one value editor open.
///
/// Each control keeps its own state and behaviour; the surface forwards actions by index,
/// scopes each control's effect identifiers (two knobs may show the same parameter) and, when a
/// knob opens its editor, closes the one that was open.
public struct ControlSurfaceFeature: Reducer {
    /// The surface's state.
    public struct State: Sendable, Equatable {
        /// The knobs, in drawing order.
        public var knobs: [KnobFeature.State]
        /// The toggles, in drawing order.
        public var toggles: [ToggleFeature.State]

        /// Creates a surface.
        public init(knobs: [KnobFeature.State] = [], toggles: [ToggleFeature.State] = []) {
            self.knobs = knobs
            self.toggles = toggles
        }

        /// The index of the knob whose editor is open, or `nil`.
        public var editingKnobIndex: Int? {
            knobs.firstIndex { $0.editor != nil }
        }

        /// The open editor, or `nil`: the surface's one editor.
        public var editor: ValueEditorState? {
            editingKnobIndex.flatMap { knobs[$0].editor }
        }
    }

    /// What happened on the surface.
    public enum Action: Sendable, Equatable {
        /// Something happened to the knob at this index.
        case knob(index: Int, KnobFeature.Action)
        /// Something happened to the toggle at this index.
        case toggle(index: Int, ToggleFeature.Action)
        /// The surface appeared: every control starts observing.
        case task(Theme)
        /// The surface went away: every control stops observing.
        case stopValueObservation
    }

    /// The knobs' behaviour.
    public var knob: KnobFeature

    /// Creates the surface reducer.
    public init(knob: KnobFeature = KnobFeature()) {
        self.knob = knob
    }

    /// Forwards to the controls and keeps a single editor open.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .knob(let index, let knobAction):
            guard state.knobs.indices.contains(index) else { return .none }
            let previouslyEditing = state.editingKnobIndex
            let effect = reduceKnob(&state, index: index, action: knobAction)
            guard state.knobs[index].editor != nil, let previous = previouslyEditing, previous != index else {
                return effect
            }
            return .merge(effect, .send(.knob(index: previous, .editorDismissed(nil))))
        case .toggle(let index, let toggleAction):
            guard state.toggles.indices.contains(index) else { return .none }
            return reduceToggle(&state, index: index, action: toggleAction)
        case .task(let theme):
            return .merge(
                state.knobs.indices.map { reduceKnob(&state, index: $0, action: .task(theme)) }
                    + state.toggles.indices.map { reduceToggle(&state, index: $0, action: .task) })
        case .stopValueObservation:
            return .merge(
                state.knobs.indices.map { reduceKnob(&state, index: $0, action: .stopValueObservation) }
                    + state.toggles.indices.map { reduceToggle(&state, index: $0, action: .stopValueObservation) })
        }
    }

    private func reduceKnob(_ state: inout State, index: Int, action: KnobFeature.Action) -> Effect<Action> {
        knob.reduce(into: &state.knobs[index], action: action)
            .scoped("knob[\(index)]")
            .map { .knob(index: index, $0) }
    }

    private func reduceToggle(_ state: inout State, index: Int, action: ToggleFeature.Action) -> Effect<Action> {
        ToggleFeature().reduce(into: &state.toggles[index], action: action)
            .scoped("toggle[\(index)]")
            .map { .toggle(index: index, $0) }
    }
}
