/// How strictly a ``TestStore`` checks a test.
public enum Exhaustivity: Sendable, Equatable {
    /// Every state change must be asserted, every received action handled, and no effect may be
    /// running when the store goes away.
    case on
    /// Only what the test asserts is checked: received actions may be skipped and effects may
    /// still be running at the end.
    case off
}
