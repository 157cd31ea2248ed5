import Synchronization

/// A value behind a `Mutex` whose ordering ThreadSanitizer can see.
///
/// On Linux `Mutex` waits in the standard library's uninstrumented futex path, so ThreadSanitizer
/// does not see the ordering it gives and reports false races on the protected value. An acquire
/// load at the start and a release store at the end of every critical section make that ordering
/// visible; on x86-64 both are plain moves.
package final class LockedValue<Value>: Sendable {
    private let mutex: Mutex<Value>
    private let sanitizerFence = Atomic<UInt32>(0)

    package init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
        mutex.withLock { value in
            let generation = sanitizerFence.load(ordering: .acquiring)
            defer { sanitizerFence.store(generation &+ 1, ordering: .releasing) }
            return body(&value)
        }
    }
}
