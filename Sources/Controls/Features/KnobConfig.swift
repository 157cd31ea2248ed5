/// The timings of a knob.
public struct KnobConfig: Sendable, Hashable {
    /// How long the title shows a value after the last change (1250 ms).
    public var showValueDuration: Duration
    /// How long external parameter changes must pause before the knob takes the last one (10 ms).
    public var debounceDuration: Duration
    /// How long after its last step a key or wheel gesture ends, sending its release (300 ms,
    /// SURFACES.md §2).
    public var stepGestureDuration: Duration

    /// Creates a configuration.
    public init(
        showValueDuration: Duration = .milliseconds(1250), debounceDuration: Duration = .milliseconds(10),
        stepGestureDuration: Duration = .milliseconds(300)
    ) {
        self.showValueDuration = showValueDuration
        self.debounceDuration = debounceDuration
        self.stepGestureDuration = stepGestureDuration
    }

    /// 1250 ms, 10 ms and 300 ms.
    public static let `default` = KnobConfig()
}
