import Foundation
import Parameters

/// A knob bound to a parameter: the track (the arc and its gestures), the title (name or
/// value), the value editor, and the two-way binding with the parameter.
///
/// The children run first for every action, then the knob's own logic. Gestures and the editor
/// write the parameter with the knob's observer token, so the knob never hears its own writes;
/// changes from elsewhere arrive through the observer, debounced on the store's clock. A drag
/// writes a touch event when it starts and a release event when it ends.
public struct KnobFeature: Reducer {
    /// The timings.
    public var config: KnobConfig
    /// The locale whose decimal separator the editor accepts and shows.
    public var locale: Locale

    /// Creates the knob reducer.
    public init(config: KnobConfig = .default, locale: Locale = .current) {
        self.config = config
        self.locale = locale
    }

    /// Runs the track and the title, then the knob.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        var childEffects: [Effect<Action>] = []
        switch action {
        case .track(let trackAction):
            childEffects.append(TrackFeature().reduce(into: &state.track, action: trackAction).map(Action.track))
        case .title(let titleAction):
            childEffects.append(
                TitleFeature(config: config).reduce(into: &state.title, action: titleAction).map(Action.title))
        default:
            break
        }
        return .merge(childEffects + [reduceKnob(into: &state, action: action)])
    }

    private func reduceKnob(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .track(let trackAction):
            return reduceTrack(into: &state, action: trackAction)
        case .title(.titleTapped(let theme)):
            openEditor(&state, theme: theme)
            return .none
        case .title:
            return .none
        case .setValue(let value):
            let clamped = state.clamp(value)
            state.parameter?.setValue(Float(clamped), originator: state.observerToken, eventType: .value)
            return .merge(.send(.title(.valueChanged(clamped))), .send(.track(.valueChanged(clamped))))
        case .setValueSilently(let value):
            let clamped = state.clamp(value)
            state.parameter?.setValue(Float(clamped), originator: state.observerToken, eventType: .value)
            return .send(.track(.valueChanged(clamped)))
        case .valueChanged(let value):
            // A value the knob already shows (within the norm's resolution) must not flash the title.
            if state.track.normValueTransform.valueToNorm(value) == state.track.norm {
                return .none
            }
            return .merge(.send(.title(.valueChanged(value))), .send(.track(.valueChanged(value))))
        case .editorTextChanged(let text):
            if let editor = state.editor {
                state.editor?.value = editor.accepting(text)
            }
            return .none
        case .editorDismissed(let text):
            let editor = state.editor
            state.editor = nil
            state.scrollToDestination = nil
            guard let text, let parsed = (editor ?? makeEditor(state, theme: Theme())).parse(text) else {
                return .none
            }
            let transform = state.track.normValueTransform
            let value = transform.normToValue(transform.valueToNorm(parsed))
            write(&state, value: value, cause: .value)
            return .merge(.send(.title(.valueChanged(value))), .send(.track(.valueChanged(value))))
        case .task(let theme):
            state.theme = theme
            return startObserving(&state)
        case .stopValueObservation:
            return stopObserving(&state)
        case .performScrollTo(let id):
            state.scrollToDestination = id
            return .none
        }
    }

    private func reduceTrack(into state: inout State, action: TrackFeature.Action) -> Effect<Action> {
        switch action {
        case .dragStarted:
            write(&state, value: state.value, cause: .touch)
            return .send(.title(.dragActive(true)))
        case .dragChanged:
            write(&state, value: state.value, cause: .value)
            return .send(.title(.valueChanged(state.value)))
        case .dragEnded:
            write(&state, value: state.value, cause: .release)
            return .send(.title(.dragActive(false)))
        case .viewTapped(times: 1):
            return .send(.title(.valueChanged(state.value)))
        case .viewTapped(times: 2):
            if let theme = state.theme {
                openEditor(&state, theme: theme)
            }
            return .none
        case .viewTapped, .normChanged, .valueChanged:
            return .none
        }
    }

    /// Writes a gesture's or the editor's value: a value event only when the value changes, a
    /// touch or release event always (hosts and the server need them to mark the gesture).
    private func write(_ state: inout State, value: Double, cause: AutomationEventType) {
        guard let parameter = state.parameter else { return }
        let newValue = Float(value)
        if cause == .value, parameter.value == newValue {
            return
        }
        parameter.setValue(newValue, originator: state.observerToken, eventType: cause)
    }

    private func openEditor(_ state: inout State, theme: Theme) {
        state.editor = makeEditor(state, theme: theme)
    }

    private func makeEditor(_ state: State, theme: Theme) -> ValueEditorState {
        ValueEditorState(
            id: state.id,
            displayName: state.displayName,
            value: state.formatter.forEditing(state.value, locale: locale),
            theme: theme,
            decimalAllowed: .allowed,
            signAllowed: state.track.normValueTransform.minimumValue < 0 ? .allowed : .none,
            decimalSeparator: ValueEditorState.decimalSeparator(of: locale))
    }

    private func startObserving(_ state: inout State) -> Effect<Action> {
        guard let parameter = state.parameter, let cancelID = state.valueObservationCancelID else {
            return .none
        }
        if let previous = state.observerToken {
            // A second start replaces the observer; the old one must not stay registered.
            parameter.removeParameterObserver(previous)
        }
        let relay = ObservationRelay<Double>()
        let token = parameter.token { change in
            guard change.eventType == .value else { return }
            relay.deliver(Double(change.value))
        }
        state.observerToken = token
        let debounce = config.debounceDuration
        return .subscribe { send in
            relay.attach { value in send.debounced(.valueChanged(value), for: debounce) }
            return Cancellation {
                relay.detach()
                parameter.removeParameterObserver(token)
            }
        }
        .cancellable(id: cancelID, cancelInFlight: true)
    }

    private func stopObserving(_ state: inout State) -> Effect<Action> {
        if let token = state.observerToken {
            state.parameter?.removeParameterObserver(token)
            state.observerToken = nil
        }
        guard let cancelID = state.valueObservationCancelID else { return .none }
        return .cancel(id: cancelID)
    }
}
