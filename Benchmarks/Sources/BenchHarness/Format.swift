/// Number formatting for the report, without Foundation.
public enum Format {
    /// A rate with a k/M suffix and three significant figures: `12.3 M/s`.
    public static func rate(_ perSecond: Double) -> String {
        if perSecond >= 1e6 { return "\(fixed(perSecond / 1e6, significant: 3)) M/s" }
        if perSecond >= 1e3 { return "\(fixed(perSecond / 1e3, significant: 3)) k/s" }
        return "\(fixed(perSecond, significant: 3)) /s"
    }

    /// A ratio with two decimals and a times sign: `2.41×`.
    public static func ratio(_ value: Double) -> String {
        "\(fixed(value, decimals: 2))×"
    }

    /// Nanoseconds as microseconds with one decimal: `16.3 µs`.
    public static func micros(_ nanoseconds: UInt64) -> String {
        "\(fixed(Double(nanoseconds) / 1000, decimals: 1)) µs"
    }

    /// `value` with a fixed number of decimals.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled - Double(whole) * scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    private static func fixed(_ value: Double, significant: Int) -> String {
        let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
        return fixed(value, decimals: max(0, min(digits, significant - 1)))
    }
}
