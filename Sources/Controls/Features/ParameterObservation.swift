import Parameters

/// A control's observer on its parameter, shared by the knob and the toggle, as an effect.
///
/// The reducer makes the observer's token (through its ``ParameterClient``) and keeps it in its
/// state, so that every write it returns carries it; the subscription effect adds the observer
/// under that token when the store runs it, right after the reducer returns, and removes it when
/// cancelled (by ``stop(token:cancelID:)``, a new start, or the store going away). `reduce`
/// itself never touches the parameter.
enum ParameterObservation {
    /// The effect that observes `parameter`'s value events under `token` and hands each to
    /// `deliver` with the effect's `Send`. A running observation with the same `cancelID` is
    /// cancelled first, and with it the observer it added.
    static func start<Action: Sendable>(
        _ parameter: Parameter, token: ParameterObserverToken, cancelID: String,
        deliver: @escaping @Sendable (Send<Action>, ParameterValue) -> Void
    ) -> Effect<Action> {
        Effect<Action>.subscribe { send in
            parameter.addParameterObserver(token) { change in
                guard change.eventType == .value else { return }
                deliver(send, change.value)
            }
            return Cancellation { parameter.removeParameterObserver(token) }
        }
        .cancellable(id: cancelID, cancelInFlight: true)
    }

    /// Forgets the token (setting it to `nil`) and cancels the observation, which removes the
    /// observer.
    static func stop<Action: Sendable>(token: inout ParameterObserverToken?, cancelID: String?) -> Effect<Action> {
        token = nil
        return cancelID.map { .cancel(id: $0) } ?? .none
    }
}
