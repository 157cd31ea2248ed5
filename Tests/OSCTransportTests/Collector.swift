import Foundation

/// Collects values from handlers that run on an event loop, for tests to wait on with a bound.
///
/// An `NSLock` rather than `Mutex`: on Linux, `Mutex` waits in a futex path that ThreadSanitizer
/// does not see, so it reports the guarded accesses as races.
final class Collector<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    var all: [Value] { lock.withLock { values } }

    var count: Int { lock.withLock { values.count } }

    /// Waits until at least `count` values arrived or `seconds` passed; returns what arrived.
    @discardableResult
    func wait(for count: Int, seconds: Double = 5) async -> [Value] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while self.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        return all
    }
}
