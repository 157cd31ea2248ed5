import Dispatch

/// Timer deadlines from seconds, without a conversion that can trap.
///
/// Peers choose rates and intervals (`hz`, `maxHz`), and a deadline computed from one of them
/// once overflowed `UInt64` and stopped the process (issue 9: `/wave/sub … f 1e-12`). Every
/// timer of the server takes its deadline from here, where the delay is cut to at most a day and
/// a value that is not a finite number means the longest delay.
enum Deadline {
    /// The longest delay of any server timer, in seconds (a day).
    static let maximumDelay: Double = 86_400

    /// The Dispatch time `delay` seconds from now, with `delay` clamped to `0...maximumDelay`.
    static func after(seconds delay: Double) -> DispatchTime {
        let clamped = delay.isNaN ? maximumDelay : min(max(delay, 0), maximumDelay)
        return .now() + .nanoseconds(Int(clamped * 1e9))
    }

    /// The Dispatch time at `due` seconds of the monotonic clock (`ServerCore.now()`), clamped to
    /// between now and ``maximumDelay`` from now.
    static func at(uptimeSeconds due: Double) -> DispatchTime {
        after(seconds: due - ServerCore.now())
    }
}
