/// The timings of a knob.
public struct KnobConfig: Sendable, Hashable {
    /// How long the title shows a value after the last change (1250 ms).
    public var showValueDuration: Duration
    /// How long external parameter changes must pause before the knob takes the last one (10 ms).
    public var debounceDuration: Duration

    /// Creates a configuration.
    public init(showValueDuration: Duration = .milliseconds(1250), debounceDuration: Duration = .milliseconds(10)) {
        self.showValueDuration = showValueDuration
        self.debounceDuration = debounceDuration
    }

    /// 1250 ms and 10 ms.
    public static let `default` = KnobConfig()
}
