import Dispatch
import Synchronization

/// An ``EffectClock`` on wall-clock time, backed by a Dispatch queue.
public struct RealClock: EffectClock {
    private let queue: DispatchQueue

    /// Creates a clock that calls back on `queue` (a global queue by default).
    public init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// Schedules `body` on the queue after `delay`.
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> Cancellation {
        let cancelled = Cancelled()
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if !cancelled.flag.load(ordering: .acquiring) {
                body()
            }
        }
        return Cancellation { cancelled.flag.store(true, ordering: .releasing) }
    }

    private final class Cancelled: Sendable {
        let flag = Atomic(false)
    }
}
