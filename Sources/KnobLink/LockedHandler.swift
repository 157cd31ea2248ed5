import Locking

/// An optional callback that any thread may set, read and call.
///
/// The closure lives in a class box. Kept directly as the generic value of a lock, every read
/// through the lock's `(inout Value) -> Result` body wrote the closure back wrapped in two more
/// reabstraction thunks, so each call went through more of them than the last: after about
/// 159,000 log events the UDP reader thread overflowed its stack, and long before that every
/// event had become slower (issue 9). A box is a reference, which no access reabstracts.
final class LockedHandler<Argument>: Sendable {
    private final class Box: Sendable {
        let body: @Sendable (Argument) -> Void
        init(_ body: @escaping @Sendable (Argument) -> Void) { self.body = body }
    }

    private let box = Locked<Box?>(nil)

    init() {}

    /// The callback, or `nil` for none.
    var handler: (@Sendable (Argument) -> Void)? {
        get { box.withLock { $0 }?.body }
        set {
            let new = newValue.map(Box.init)
            box.withLock { $0 = new }
        }
    }

    /// Calls the callback, if there is one, outside the lock.
    func callAsFunction(_ argument: Argument) {
        box.withLock { $0 }?.body(argument)
    }
}
