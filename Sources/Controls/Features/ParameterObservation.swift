import Parameters

/// Starting and stopping a control's observer on its parameter, shared by the knob and the toggle.
///
/// The observer is added by the reducer, so that the token is in the state before the first write
/// that must carry it; the subscription effect it returns delivers the values and, when cancelled
/// (by `stop` or by the store going away), removes the observer.
enum ParameterObservation {
    /// Adds an observer of `parameter`'s value events, after removing the one that `previous`
    /// names, and returns its token with the effect that delivers its values.
    ///
    /// - Parameter deliver: called with the effect's `Send` for every value event.
    static func start<Action: Sendable>(
        _ parameter: Parameter,
        replacing previous: ParameterObserverToken?,
        cancelID: String,
        deliver: @escaping @Sendable (Send<Action>, ParameterValue) -> Void
    ) -> (token: ParameterObserverToken, effect: Effect<Action>) {
        if let previous {
            // A second start replaces the observer; the old one must not stay registered.
            parameter.removeParameterObserver(previous)
        }
        let relay = ObservationRelay<ParameterValue>()
        let token = parameter.token { change in
            guard change.eventType == .value else { return }
            relay.deliver(change.value)
        }
        let effect = Effect<Action>.subscribe { send in
            relay.attach { value in deliver(send, value) }
            return Cancellation {
                relay.detach()
                parameter.removeParameterObserver(token)
            }
        }
        return (token, effect.cancellable(id: cancelID, cancelInFlight: true))
    }

    /// Removes the observer named by `token` (setting it to `nil`) and cancels its effect.
    static func stop<Action: Sendable>(
        _ parameter: Parameter?, token: inout ParameterObserverToken?, cancelID: String?
    ) -> Effect<Action> {
        if let current = token {
            parameter?.removeParameterObserver(current)
            token = nil
        }
        return cancelID.map { .cancel(id: $0) } ?? .none
    }
}
