import Foundation
import Locking

/// Collects values from handlers that run on an event loop, for tests to wait on with a bound.
///
final class Collector<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] { values.withLock { $0 } }

    var count: Int { values.withLock { $0.count } }

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
