import Dispatch
import Synchronization

/// The monotonic clock of the servers in a process, in nanoseconds.
///
/// The system's uptime clock plus an offset that only moves forward. The offset stays 0 in a
/// server that runs as one; the server core's fuzz target moves it forward between the packets of
/// an input and runs the core's timers itself, so that one input can cover an hour of rate
/// limits, expiries and playback (a virtual clock). Dispatch timers are set from differences of
/// this clock (``Deadline``), so they fire at the right distance whatever the offset.
enum ServerClock {
    private static let offset = Atomic<UInt64>(0)

    /// Now, in nanoseconds.
    @inline(__always)
    static func nanoseconds() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds &+ offset.load(ordering: .relaxed)
    }

    /// The furthest the clock is moved forward, about 146 years: far enough for any expiry,
    /// and short of the 64-bit nanosecond counter's end, so that a long fuzz run never wraps it.
    static let maximumOffset: UInt64 = 1 << 62

    /// Moves the clock forward by `nanoseconds`, up to ``maximumOffset`` in all. One thread moves
    /// it (the fuzzer's), so a load and a store do.
    static func advance(by nanoseconds: UInt64) {
        let current = offset.load(ordering: .relaxed)
        offset.store(current + min(nanoseconds, maximumOffset - current), ordering: .relaxed)
    }
}
