#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock: the one lock box of the package, for the little state that more than
/// one thread touches.
///
/// A `pthread_mutex_t` rather than the standard library's `Mutex`: on Linux, `Mutex` waits in a
/// futex path that ThreadSanitizer does not see, so it reports the guarded accesses as races; it
/// sees pthread's. (And not `NSLock`, the same mutex, which needs the whole of Foundation.)
///
/// `Sendable` when its value is: a box does not make a non-`Sendable` value safe to share.
///
/// Not for a closure that changes: `withLock` writes its value back, and a function value written
/// back through a generic `inout` comes back wrapped in one more reabstraction thunk each time.
/// Keep the closure in a class and lock the reference.
public final class Locked<Value> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
        // A mutex must not move once used: it lives at a fixed address of its own.
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, no other thread inside, and returns what it returns.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with the value if no other thread holds the lock now; `nil` if one does
    /// (for a signal handler, which must not wait).
    public func withLockIfAvailable<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result?
    {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
