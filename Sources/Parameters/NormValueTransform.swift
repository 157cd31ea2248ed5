/// The value ⇄ norm transform of a range and a taper (CONTROLS.md 1.1), with KnobLink's fixes.
///
/// `valueToNorm` clamps the value to the range first; `normToValue` does not clamp the norm.
/// A range with `minimumValue == maximumValue` has norm 0 for every value (not NaN), and every
/// norm maps to that single value.
public struct NormValueTransform: Sendable, Hashable {
    /// The lower end of the range.
    public var minimumValue: Double
    /// The upper end of the range.
    public var maximumValue: Double
    /// The taper between the ends.
    public var taper: ParameterTaper

    /// Creates a transform over `minimumValue…maximumValue` with a taper.
    public init(minimumValue: Double, maximumValue: Double, taper: ParameterTaper = .linear) {
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.taper = taper
    }

    /// Creates a transform with CONTROLS.md 1.1's `logScale` switch.
    public init(minimumValue: Double, maximumValue: Double, logScale: Bool) {
        self.init(minimumValue: minimumValue, maximumValue: maximumValue, taper: logScale ? .logarithmic : .linear)
    }

    /// Maps a value to its normalised position; the value is clamped to the range first.
    ///
    /// NaN maps to NaN (callers refuse it before), ±infinity to 0 or 1.
    @inlinable
    public func valueToNorm(_ value: Double) -> Double {
        let span = maximumValue - minimumValue
        guard span > 0 else { return 0 }
        let clamped = Swift.min(Swift.max(value, minimumValue), maximumValue)
        let lin = (clamped - minimumValue) / span
        return taper.normalized(fromLinear: lin)
    }

    /// Maps a normalised position to a value. The norm is not clamped.
    @inlinable
    public func normToValue(_ norm: Double) -> Double {
        taper.linear(fromNormalized: norm) * (maximumValue - minimumValue) + minimumValue
    }
}
