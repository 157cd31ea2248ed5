/// An ``EffectClock`` on which no time passes: every scheduled closure runs at once.
///
/// Useful in tests that do not care about timing: a delayed action arrives right after the
/// action that started it.
public struct ImmediateClock: EffectClock {
    /// Creates an immediate clock.
    public init() {}

    /// Calls `body` before returning.
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> Cancellation {
        body()
        return .none
    }
}
