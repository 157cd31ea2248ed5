/// Carries parameter changes from an observer, registered by a reducer, to the subscription
/// effect that the reducer returns: the observer exists before the effect's `Send` does.
final class ObservationRelay<Value: Sendable>: Sendable {
    /// The effect's callback in a class box: a closure kept directly as a lock's value comes back
    /// from every `withLock` wrapped in more reabstraction thunks, so each delivery would be
    /// slower than the last (the server's log handler overflowed its stack that way).
    private final class Target: Sendable {
        let body: @Sendable (Value) -> Void
        init(_ body: @escaping @Sendable (Value) -> Void) { self.body = body }
    }

    private let target = LockedValue<Target?>(nil)

    func attach(_ body: @escaping @Sendable (Value) -> Void) {
        let box = Target(body)
        target.withLock { $0 = box }
    }

    func detach() {
        target.withLock { $0 = nil }
    }

    func deliver(_ value: Value) {
        target.withLock { $0 }?.body(value)
    }
}
