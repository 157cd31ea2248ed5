import Synchronization

/// Carries parameter changes from an observer, registered by a reducer, to the subscription
/// effect that the reducer returns: the observer exists before the effect's `Send` does.
final class ObservationRelay<Value: Sendable>: Sendable {
    private let target = Mutex<(@Sendable (Value) -> Void)?>(nil)

    func attach(_ body: @escaping @Sendable (Value) -> Void) {
        target.withLock { $0 = body }
    }

    func detach() {
        target.withLock { $0 = nil }
    }

    func deliver(_ value: Value) {
        target.withLock { $0 }?(value)
    }
}
