import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A knob bound to a parameter: the track (the arc and its gestures), the title (name or
/// value), the value editor, and the two-way binding with the parameter.
///
/// The children run first for every action (``Scope``), then the knob's own logic. The reducer
/// is pure: it writes the parameter only through effects of its ``ParameterClient``, with the
/// knob's observer token, so the knob never hears its own writes, and each write done comes back
/// as ``Action/parameterWritten(_:)``. Changes from elsewhere arrive through the observer,
/// debounced on the store's clock.
///
/// A gesture (a drag, or a run of key or wheel steps) writes a touch event when it starts and a
/// release event when it ends, so that the server tells its peers `P/touch 1` and `P/touch 0`;
/// values that arrive from elsewhere while the knob is held are kept aside and the latest one is
/// shown on release, so the knob never jumps under the user's hand.
public struct KnobFeature: Reducer {
    /// The timings.
    public var config: KnobConfig
    /// The locale whose decimal separator the editor accepts and shows.
    public var locale: Locale
    /// How the knob writes its parameter.
    public var parameters: ParameterClient

    /// Creates the knob reducer.
    public init(config: KnobConfig = .default, locale: Locale = .current, parameters: ParameterClient = .live) {
        self.config = config
        self.locale = locale
        self.parameters = parameters
    }

    private static let track = Scope(
        state: \State.track, extract: { (action: Action) in if case .track(let track) = action { track } else { nil } },
        embed: Action.track, child: TrackFeature())

    /// Runs the track and the title, then the knob.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let title = Scope(
            state: \State.title,
            extract: { (action: Action) in if case .title(let title) = action { title } else { nil } },
            embed: Action.title, child: TitleFeature(config: config))
        let children = Effect.merge(
            Self.track.reduce(into: &state, action: action), title.reduce(into: &state, action: action))
        return .merge(children, reduceKnob(into: &state, action: action))
    }

    private func reduceKnob(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .track(let trackAction):
            return reduceTrack(into: &state, action: trackAction)
        case .title(.titleTapped(let theme)):
            state.editor = makeEditor(state, theme: theme)
            return .none
        case .title, .parameterWritten:
            return .none
        case .setValue(let value):
            let clamped = state.clamp(value)
            return .merge(
                write(state, value: clamped, cause: .value),
                .send(.title(.valueChanged(clamped))), .send(.track(.valueChanged(clamped))))
        case .setValueSilently(let value):
            let clamped = state.clamp(value)
            return .merge(write(state, value: clamped, cause: .value), .send(.track(.valueChanged(clamped))))
        case .resetRequested:
            guard let parameter = state.parameter else { return .none }
            return reduceKnob(into: &state, action: .setValue(Double(parameter.defaultValue)))
        case .valueChanged(let value):
            if state.isHeld {
                state.heldValue = value
                return .none
            }
            // A value the knob already shows (within the norm's resolution) must not flash the title.
            if state.track.normValueTransform.valueToNorm(value) == state.track.norm {
                return .none
            }
            return .merge(.send(.title(.valueChanged(value))), .send(.track(.valueChanged(value))))
        case .stepped(let norm):
            return step(&state, to: norm)
        case .stepGestureTimedOut:
            guard state.gesture == .steps else { return .none }
            return release(&state)
        case .editorTextChanged(let text):
            if let editor = state.editor {
                state.editor?.value = editor.accepting(text)
            }
            return .none
        case .editorDismissed(let text):
            let separator = state.editor?.decimalSeparator ?? ValueEditorState.decimalSeparator(of: locale)
            state.editor = nil
            state.scrollToDestination = nil
            // A number, or display text read by the parameter's own parser (the one `P/str` uses).
            guard let text,
                let parsed = ValueEditorState.parse(text, decimalSeparator: separator)
                    ?? (try? state.parameter?.value(fromString: text, locale: locale)).map(Double.init)
            else {
                return .none
            }
            let transform = state.track.normValueTransform
            let value = transform.normToValue(transform.valueToNorm(parsed))
            return .merge(
                write(state, value: value, cause: .value),
                .send(.title(.valueChanged(value))), .send(.track(.valueChanged(value))))
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
            // A drag that takes over from a run of steps continues the same touch.
            let touch: Effect<Action> = state.gesture == nil ? write(state, value: state.value, cause: .touch) : .none
            state.gesture = .drag
            return .merge(touch, .cancel(id: stepGestureID(state)), .send(.title(.dragActive(true))))
        case .dragChanged:
            // The hand wins over a value kept aside: it is now older than what the knob writes.
            state.heldValue = nil
            return .merge(write(state, value: state.value, cause: .value), .send(.title(.valueChanged(state.value))))
        case .dragEnded:
            return release(&state)
        case .viewTapped(times: 1):
            return .send(.title(.valueChanged(state.value)))
        case .viewTapped(times: 2):
            if let theme = state.theme {
                state.editor = makeEditor(state, theme: theme)
            }
            return .none
        case .viewTapped, .normChanged, .valueChanged:
            return .none
        }
    }

    /// One key or wheel step: touches the parameter if nobody holds it yet, moves, and (re)starts
    /// the timer that ends the gesture.
    private func step(_ state: inout State, to norm: Double) -> Effect<Action> {
        var effects: [Effect<Action>] = []
        if state.gesture == nil {
            state.gesture = .steps
            effects += [write(state, value: state.value, cause: .touch), .send(.title(.dragActive(true)))]
        }
        state.track.norm = norm.isNaN ? state.track.norm : norm.clamped(to: 0...1)
        state.heldValue = nil
        effects += [write(state, value: state.value, cause: .value), .send(.title(.valueChanged(state.value)))]
        if state.gesture == .steps {
            effects.append(
                .delayed(.stepGestureTimedOut, by: config.stepGestureDuration)
                    .cancellable(id: stepGestureID(state), cancelInFlight: true))
        }
        return .merge(effects)
    }

    /// Ends the gesture: the release event, the title's timer, then the value kept aside.
    ///
    /// The release carries the parameter's latest value: the one kept aside if another peer set
    /// it during the gesture (a release also sets the value, and must not undo that change).
    private func release(_ state: inout State) -> Effect<Action> {
        let wasHeld = state.isHeld
        state.gesture = nil
        var effects: [Effect<Action>] = [.cancel(id: stepGestureID(state))]
        if wasHeld {
            effects.append(write(state, value: state.heldValue ?? state.value, cause: .release))
        }
        effects.append(.send(.title(.dragActive(false))))
        if let held = state.heldValue {
            state.heldValue = nil
            effects.append(.send(.valueChanged(held)))
        }
        return .merge(effects)
    }

    private func stepGestureID(_ state: State) -> String {
        "KnobFeature.stepGesture[\(state.id)]"
    }

    /// The effect that writes through the client and reports the write back.
    private func write(_ state: State, value: Double, cause: AutomationEventType) -> Effect<Action> {
        guard let parameter = state.parameter else { return .none }
        let request = ParameterWrite(
            parameter: parameter, value: Float(value), eventType: cause, originator: state.observerToken)
        let client = parameters
        return .perform { client.write(request) ? .parameterWritten(request) : nil }
    }

    private func makeEditor(_ state: State, theme: Theme) -> ValueEditorState {
        ValueEditorState(
            id: state.id,
            displayName: state.displayName,
            value: state.formatter.forEditing(state.value, locale: locale),
            theme: theme,
            decimalAllowed: .allowed,
            signAllowed: state.track.normValueTransform.minimumValue < 0 ? .allowed : .none,
            decimalSeparator: ValueEditorState.decimalSeparator(of: locale),
            suffixAllowed: state.parameter.map { !$0.unitName.isEmpty || !$0.valueStrings.isEmpty } == true
                ? .allowed : .none)
    }

    private func startObserving(_ state: inout State) -> Effect<Action> {
        guard let parameter = state.parameter, let cancelID = state.valueObservationCancelID else {
            return .none
        }
        let debounce = config.debounceDuration
        let token = parameters.makeObserverToken()
        state.observerToken = token
        return ParameterObservation.start(parameter, token: token, cancelID: cancelID) { (send: Send<Action>, value) in
            send.debounced(.valueChanged(Double(value)), for: debounce)
        }
    }

    private func stopObserving(_ state: inout State) -> Effect<Action> {
        ParameterObservation.stop(token: &state.observerToken, cancelID: state.valueObservationCancelID)
    }
}
