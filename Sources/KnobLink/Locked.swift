import Foundation

/// A value behind a lock, for the little state that threads other than the loop touch.
///
/// Not for a closure: `withLock` writes its value back, and a function value written back
/// through a generic `inout` comes back wrapped in reabstraction thunks, one layer more each
/// time (use ``LockedHandler``).
///
/// An `NSLock` rather than `Mutex`: on Linux, `Mutex` waits in a futex path that ThreadSanitizer
/// does not see, so it reports the guarded accesses as races.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
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
