import Foundation

/// A value behind a lock, for the little state that threads other than the loop touch.
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
