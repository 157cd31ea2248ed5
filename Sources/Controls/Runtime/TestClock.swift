import Locking

/// A virtual ``EffectClock`` whose time moves only when a test calls ``advance(by:)`` or
/// ``run(limit:)``.
///
/// Scheduled closures run on the caller's thread, in deadline order (ties in scheduling order),
/// with ``now`` set to each deadline while its closure runs, so that a closure that schedules
/// more work sees the right time.
public final class TestClock: EffectClock {
    private struct Timer {
        var deadline: Duration
        var sequence: Int
        var body: @Sendable () -> Void
    }

    private struct Timers {
        var now: Duration = .zero
        var nextSequence = 0
        var pending: [Int: Timer] = [:]
    }

    private let timers = Locked(Timers())

    /// Creates a clock at time zero.
    public init() {}

    /// The virtual time elapsed since the clock was created.
    public var now: Duration {
        timers.withLock { $0.now }
    }

    /// The number of scheduled closures that have neither run nor been cancelled.
    public var pendingCount: Int {
        timers.withLock { $0.pending.count }
    }

    /// Schedules `body` at `now + delay`.
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> Cancellation {
        let sequence = timers.withLock { timers in
            let sequence = timers.nextSequence
            timers.nextSequence += 1
            timers.pending[sequence] = Timer(
                deadline: timers.now + max(delay, .zero), sequence: sequence, body: body)
            return sequence
        }
        return Cancellation { [weak self] in
            _ = self?.timers.withLock { $0.pending.removeValue(forKey: sequence) }
        }
    }

    /// Moves time forward by `duration`, running every closure that falls due on the way.
    public func advance(by duration: Duration = .zero) {
        let target = timers.withLock { $0.now } + max(duration, .zero)
        while let timer = popTimer(dueBy: target) {
            timer.body()
        }
        timers.withLock { $0.now = max($0.now, target) }
    }

    /// Runs every scheduled closure, including ones scheduled while running, moving time to the
    /// last deadline.
    ///
    /// - Parameter limit: the most closures to run, a guard against work that reschedules itself
    ///   for ever.
    public func run(limit: Int = 10_000) {
        var count = 0
        while count < limit, let timer = popTimer(dueBy: nil) {
            timer.body()
            count += 1
        }
    }

    private func popTimer(dueBy target: Duration?) -> Timer? {
        timers.withLock { timers in
            let next = timers.pending.values.min { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            guard let next, target.map({ next.deadline <= $0 }) ?? true else {
                return nil
            }
            timers.pending.removeValue(forKey: next.sequence)
            timers.now = max(timers.now, next.deadline)
            return next
        }
    }
}
