import Synchronization

/// A value behind a lock: the one lock box of the package, for the little state that more than
/// one thread touches.
///
/// The standard library's `Mutex`, with one addition for ThreadSanitizer: on Linux `Mutex` waits
/// in a futex path that ThreadSanitizer does not instrument, so it does not see the ordering the
/// lock gives and reports the guarded accesses as races. An acquire load at the start and a
/// release store at the end of every critical section show it that ordering; on x86-64 both are
/// plain moves. (A pthread mutex, which ThreadSanitizer sees, made a parameter change from one
/// thread a fifth slower and from two threads about half as fast: `ParameterBenchmarks`.)
///
/// The fence is written out in each of the two lock calls on purpose: passing the value `inout`
/// to a shared helper begins the access before the helper's acquire load, and ThreadSanitizer
/// then reports it as a race (seen in CI at `6230641`).
///
/// `Sendable` when its value is: a box does not make a non-`Sendable` value safe to share.
///
/// Not for a closure that changes: `withLock` writes its value back, and a function value written
/// back through a generic `inout` comes back wrapped in one more reabstraction thunk each time.
/// Keep the closure in a class and lock the reference.
public final class Locked<Value> {
    @usableFromInline let mutex: Mutex<Value>
    @usableFromInline let sanitizerFence = Atomic<UInt32>(0)

    /// A box holding `value`.
    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, no other thread inside, and returns what it returns.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout sending Value) throws(Failure) -> sending Result)
        throws(Failure) -> sending Result
    {
        try mutex.withLock { (value) throws(Failure) -> sending Result in
            let generation = sanitizerFence.load(ordering: .acquiring)
            defer { sanitizerFence.store(generation &+ 1, ordering: .releasing) }
            return try body(&value)
        }
    }

    /// Runs `body` with the value if no other thread holds the lock now; `nil` if one does
    /// (for a signal handler, which must not wait).
    public func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        try mutex.withLockIfAvailable { (value) throws(Failure) -> sending Result in
            let generation = sanitizerFence.load(ordering: .acquiring)
            defer { sanitizerFence.store(generation &+ 1, ordering: .releasing) }
            return try body(&value)
        }
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
