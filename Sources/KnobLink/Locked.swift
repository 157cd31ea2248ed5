#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a lock, for the little state that threads other than the loop touch.
///
/// Not for a closure: `withLock` writes its value back, and a function value written back
/// through a generic `inout` comes back wrapped in reabstraction thunks, one layer more each
/// time (use ``LockedHandler``).
///
/// A `pthread_mutex_t` rather than `Mutex`: on Linux, `Mutex` waits in a futex path that
/// ThreadSanitizer does not see, so it reports the guarded accesses as races; it sees pthread's.
/// (Not `NSLock`, which is the same mutex but needs the whole of Foundation.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = PthreadLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A pthread mutex at a fixed address (a mutex must not move once used).
final class PthreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
