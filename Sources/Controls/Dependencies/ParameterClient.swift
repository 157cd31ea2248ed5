import Parameters

/// How controls write their parameters: a dependency injected into the reducers, as the clock is
/// injected into the store, so that `reduce` itself never touches a parameter.
///
/// The reducers return the write as an ``Effect/perform(_:)`` effect; when the client reports
/// that it wrote, the control receives the write back as an action (``KnobFeature/Action/parameterWritten(_:)``),
/// which is how an exhaustive test store sees every write.
///
/// It also makes the token under which a control observes its parameter: the reducer keeps the
/// token in its state (its writes carry it as their originator, so the control never hears them)
/// and returns the observer's registration as an effect.
public struct ParameterClient: Sendable {
    /// Performs a write; returns whether anything was written.
    public var write: @Sendable (ParameterWrite) -> Bool
    /// Makes a new observer token, one no other observer or originator has.
    public var makeObserverToken: @Sendable () -> ParameterObserverToken

    /// Creates a client from its write operation and its token maker.
    public init(
        write: @escaping @Sendable (ParameterWrite) -> Bool,
        makeObserverToken: @escaping @Sendable () -> ParameterObserverToken = { .unique() }
    ) {
        self.write = write
        self.makeObserverToken = makeObserverToken
    }

    /// Writes through the parameter API: a value event only when the value changes (a gesture
    /// that does not move writes nothing), touch and release events always, because hosts and the
    /// server need them to mark the gesture (the server sends `P/touch` for them).
    public static let live = ParameterClient { write in
        let parameter = write.parameter.parameter
        if write.eventType == .value, parameter.value == parameter.constrained(write.value) {
            return false
        }
        parameter.setValue(write.value, originator: write.originator, eventType: write.eventType)
        return true
    }

    /// A client that writes nothing and reports nothing: for surfaces that only show values.
    public static let readOnly = ParameterClient { _ in false }
}
