import Foundation

/// Waits until `condition` holds, checking every few milliseconds without blocking a thread, and
/// returns whether it held before `timeout`: a deadline that returns as soon as it can.
func eventually(timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
