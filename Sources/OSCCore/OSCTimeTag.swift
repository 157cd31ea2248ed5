/// An OSC time tag: a 64-bit NTP timestamp, seconds since 1900-01-01 00:00 UTC in the upper 32 bits
/// and the fraction of a second (units of 2⁻³² s, about 233 ps) in the lower 32 bits.
///
/// The raw value 1 (``immediately``) means "as soon as it arrives". Time tags compare by raw value,
/// so ``immediately`` is earlier than every real time.
public struct OSCTimeTag: Sendable, Hashable, Comparable {
    /// The 64-bit NTP value as it travels on the wire.
    public var rawValue: UInt64

    /// The special time tag 1, "immediately".
    public static let immediately = OSCTimeTag(rawValue: 1)

    /// Seconds from the NTP epoch (1900) to the Unix epoch (1970).
    static let unixEpochOffset: Int64 = 2_208_988_800

    /// Creates a time tag from its 64-bit NTP value.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Creates a time tag from whole NTP seconds (since 1900) and a fraction in units of 2⁻³² s.
    public init(seconds: UInt32, fraction: UInt32) {
        rawValue = UInt64(seconds) << 32 | UInt64(fraction)
    }

    /// The whole seconds since 1900-01-01 00:00 UTC (the upper 32 bits).
    public var seconds: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }

    /// The fraction of a second in units of 2⁻³² s (the lower 32 bits).
    public var fraction: UInt32 { UInt32(truncatingIfNeeded: rawValue) }

    /// Whether this is the special value ``immediately``.
    public var isImmediately: Bool { rawValue == 1 }

    /// Creates the time tag nearest to a time given in seconds since 1970-01-01 00:00 UTC.
    ///
    /// The whole and fractional parts are converted separately, so the result is within one
    /// fraction unit (233 ps) of the `Double`, whose own resolution near the present is about
    /// 0.24 µs. Times before 1900 clamp to zero, times after the NTP era (2036-02-07) clamp to
    /// the largest value; NaN gives zero.
    /// - Parameter secondsSince1970: seconds since the Unix epoch.
    public init(secondsSince1970: Double) {
        guard secondsSince1970.isFinite || secondsSince1970 == .infinity else {
            self.init(rawValue: 0)
            return
        }
        let ntp = secondsSince1970 + Double(Self.unixEpochOffset)
        guard ntp >= 0 else {
            self.init(rawValue: 0)
            return
        }
        guard ntp < 4_294_967_296 else {
            self.init(rawValue: .max)
            return
        }
        // Split first: `ntp - whole` is exact, so rounding happens once, on the fraction. The
        // conversions truncate, which is floor for these non-negative values; `rounded()` would
        // need libm, which a module without Foundation does not link.
        let whole = UInt64(ntp)
        let fraction = UInt64((ntp - Double(whole)) * 4_294_967_296 + 0.5)
        // A fraction that rounds up to a whole second carries; at the very end of the era it clamps.
        let (raw, overflow) = (whole << 32).addingReportingOverflow(fraction)
        self.init(rawValue: overflow ? .max : raw)
    }

    /// Creates a time tag from whole seconds since 1970-01-01 00:00 UTC and nanoseconds, rounding
    /// the nanoseconds to the nearest fraction unit.
    /// - Parameters:
    ///   - secondsSince1970: whole seconds since the Unix epoch; values outside the NTP era clamp.
    ///   - nanoseconds: 0 ..< 1 000 000 000; larger values carry into the seconds.
    public init(secondsSince1970: Int64, nanoseconds: UInt32) {
        let carry = Int64(nanoseconds / 1_000_000_000)
        let nanos = UInt64(nanoseconds % 1_000_000_000)
        let (shifted, overflow) = secondsSince1970.addingReportingOverflow(Self.unixEpochOffset &+ carry)
        guard !overflow, shifted >= 0 else {
            self.init(rawValue: overflow && secondsSince1970 > 0 ? .max : 0)
            return
        }
        guard shifted <= Int64(UInt32.max) else {
            self.init(rawValue: .max)
            return
        }
        let fraction = ((nanos << 32) + 500_000_000) / 1_000_000_000
        self.init(rawValue: (UInt64(shifted) << 32) &+ fraction)
    }

    /// The time in seconds since 1970-01-01 00:00 UTC (negative before 1970).
    ///
    /// The inverse of ``init(secondsSince1970:)-(Double)``: a round trip through both stays within
    /// 1 µs for every time tag of the NTP era.
    public var secondsSince1970: Double {
        Double(Int64(seconds) - Self.unixEpochOffset) + Double(fraction) / 4_294_967_296
    }

    /// The whole seconds since 1970 and the nanoseconds within that second, rounded to the nearest.
    public var unixTime: (seconds: Int64, nanoseconds: UInt32) {
        var whole = Int64(seconds) - Self.unixEpochOffset
        var nanos = (UInt64(fraction) * 1_000_000_000 + (1 << 31)) >> 32
        if nanos == 1_000_000_000 {
            whole += 1
            nanos = 0
        }
        return (whole, UInt32(nanos))
    }

    public static func < (lhs: OSCTimeTag, rhs: OSCTimeTag) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
