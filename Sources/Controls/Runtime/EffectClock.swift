/// The clock on which effects wait: the title's revert timer, debounces and delayed actions.
///
/// The store never sleeps; it asks its clock to call a closure later. A ``RealClock`` does that
/// on Dispatch, a ``TestClock`` only when a test advances it, and an ``ImmediateClock`` at once.
/// The name avoids the standard library's `Clock`, whose `sleep` is async and would make every
/// effect a task.
public protocol EffectClock: Sendable {
    /// Calls `body` once `delay` has elapsed on this clock, unless the returned work is cancelled
    /// first.
    ///
    /// - Parameters:
    ///   - delay: how long to wait; zero or negative means as soon as the clock allows.
    ///   - body: the closure to call; it may run on any thread (or, for an immediate clock,
    ///     before this method returns).
    /// - Returns: a handle that cancels the call.
    func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> Cancellation
}
