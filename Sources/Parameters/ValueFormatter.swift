#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Formats values for display and for editing, per unit (CONTROLS.md 1.7).
///
/// A formatter holds (significant-digit range, suffix) pairs and a style that picks one of them.
/// Each pair formats the number with its significant digits as Foundation's
/// `FloatingPointFormatStyle<Double>().precision(.significantDigits(range))` does (half-even
/// rounding of the shortest decimal form, the locale's grouping), without ICU: the separators
/// come from ``NumberSymbols``. Display uses ``defaultLocale`` (`en_US`) unless a locale is
/// given, so that the output does not depend on the machine.
public struct ValueFormatter: Sendable, Hashable {
    /// How a formatter picks its pair.
    public enum Style: Sendable, Hashable {
        /// One pair.
        case general
        /// Pair 0 (`ms`) for values below 1 shown as `value·1000`, else pair 1 (`s`).
        case seconds
        /// Pair 0 (` Hz`) below 1000, else pair 1 (`kHz`) with `value/1000`.
        case frequency
    }

    /// A significant-digit range and the suffix that follows the number.
    public struct Pair: Sendable, Hashable {
        /// The significant digits.
        public var significantDigits: ClosedRange<Int>
        /// The text appended to the number.
        public var suffix: String

        /// Creates a pair.
        public init(significantDigits: ClosedRange<Int>, suffix: String) {
            self.significantDigits = significantDigits
            self.suffix = suffix
        }
    }

    /// The locale used unless one is given: `en_US` (`.` decimal separator, `,` grouping).
    public static let defaultLocale = Locale(identifier: "en_US")

    /// The pairs, in the order the style uses them.
    public let pairs: [Pair]
    /// The selection procedure.
    public let style: Style

    /// Creates a formatter from pairs and a style.
    public init(pairs: [Pair], style: Style) {
        precondition(!pairs.isEmpty && (style == .general || pairs.count >= 2), "a style needs its pairs")
        self.pairs = pairs
        self.style = style
    }

    /// A single number with `significantDigits` and a suffix.
    public static func general(_ significantDigits: ClosedRange<Int> = 1...2, suffix: String = "") -> ValueFormatter {
        ValueFormatter(pairs: [Pair(significantDigits: significantDigits, suffix: suffix)], style: .general)
    }

    /// A percentage: suffix "%".
    public static func percentage(_ significantDigits: ClosedRange<Int> = 1...3) -> ValueFormatter {
        general(significantDigits, suffix: "%")
    }

    /// A duration with a fixed suffix.
    public static func duration(_ significantDigits: ClosedRange<Int> = 1...3, suffix: String = "s") -> ValueFormatter {
        general(significantDigits, suffix: suffix)
    }

    /// Seconds: values below 1 as milliseconds (`"250ms"`), others as seconds (`"1.2s"`).
    public static func seconds(
        milliseconds: ClosedRange<Int> = 1...3, seconds: ClosedRange<Int> = 1...3
    ) -> ValueFormatter {
        ValueFormatter(
            pairs: [
                Pair(significantDigits: milliseconds, suffix: "ms"), Pair(significantDigits: seconds, suffix: "s"),
            ],
            style: .seconds)
    }

    /// Frequency: below 1000 as `"440 Hz"`, from 1000 as `"4.81kHz"`.
    public static func frequency(hertz: ClosedRange<Int> = 1...2, kilohertz: ClosedRange<Int> = 1...3) -> ValueFormatter
    {
        ValueFormatter(
            pairs: [Pair(significantDigits: hertz, suffix: " Hz"), Pair(significantDigits: kilohertz, suffix: "kHz")],
            style: .frequency)
    }

    /// The formatter for a unit (the table of CONTROLS.md 1.7).
    public static func `for`(_ unit: ParameterUnit) -> ValueFormatter {
        switch unit {
        case .percent: .percentage()
        case .seconds: .seconds()
        case .phase, .degrees: .general(suffix: "°")
        case .rate: .general(suffix: "x")
        case .hertz: .frequency()
        case .cents, .absoluteCents: .general(suffix: " cents")
        case .decibels: .general(suffix: " dB")
        case .bpm: .general(suffix: " BPM")
        case .milliseconds: .duration(suffix: "ms")
        default: .general()
        }
    }

    /// The text shown to users: the style's pair, with its suffix.
    public func forDisplay(_ value: Double, locale: Locale = ValueFormatter.defaultLocale) -> String {
        switch style {
        case .general:
            return ValueFormatter.format(value, pairs[0], locale: locale)
        case .seconds:
            return value < 1
                ? ValueFormatter.format(value * 1000, pairs[0], locale: locale)
                : ValueFormatter.format(value, pairs[1], locale: locale)
        case .frequency:
            return value < 1000
                ? ValueFormatter.format(value, pairs[0], locale: locale)
                : ValueFormatter.format(value / 1000, pairs[1], locale: locale)
        }
    }

    /// The text put in an editor: 1…6 significant digits, no grouping, no suffix, in the
    /// parameter's own units.
    public func forEditing(_ value: Double, locale: Locale = ValueFormatter.defaultLocale) -> String {
        ValueFormatter.number(value, 1...6, grouping: false, locale: locale)
    }

    static func format(_ value: Double, _ pair: Pair, locale: Locale) -> String {
        number(value, pair.significantDigits, grouping: true, locale: locale) + pair.suffix
    }

    static func number(_ value: Double, _ digits: ClosedRange<Int>, grouping: Bool, locale: Locale) -> String {
        SignificantDigits.format(value, digits, symbols: NumberSymbols(locale: locale), grouping: grouping)
    }
}
