#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns display text (`"-6 dB"`, `"1.2kHz"`, `"250ms"`, `"50%"`, `"on"`) into a value.
///
/// The text is a number followed by an optional unit suffix, with spaces allowed around both.
/// The number may have a sign (`+`, `-` or `−`), grouping separators before groups of three
/// digits, the locale's decimal separator or `.`, an exponent, or be `inf`. The suffix scales the number to
/// the unit (`kHz` ×1000 for hertz; `ms` ×0.001 for seconds; `s` ×1000 for milliseconds);
/// matching is case-insensitive. Boolean parameters also take on/off, true/false and yes/no.
/// Values are not clamped here: `setValue` does that.
public struct ValueParser: Sendable {
    /// The unit of the values produced.
    public var unit: ParameterUnit
    /// The value strings of an indexed parameter; a match gives `minValue + position`.
    public var valueStrings: [String]
    /// The first value string's value.
    public var minValue: Double
    /// A custom unit's name, accepted as a suffix.
    public var unitName: String?
    /// The locale whose decimal and grouping separators are accepted besides `.` and `,`.
    public var locale: Locale

    /// Creates a parser for a unit.
    public init(
        unit: ParameterUnit, valueStrings: [String] = [], minValue: Double = 0, unitName: String? = nil,
        locale: Locale = ValueFormatter.defaultLocale
    ) {
        self.unit = unit
        self.valueStrings = valueStrings
        self.minValue = minValue
        self.unitName = unitName
        self.locale = locale
    }

    /// Parses text to a value in the unit.
    /// - Throws: ``ValueParsingError``.
    public func parse(_ text: String) throws(ValueParsingError) -> Double {
        let trimmed = PlainText.trimmed(text)
        guard !trimmed.isEmpty else { throw .empty }
        if let position = valueStrings.firstIndex(where: { PlainText.equalIgnoringCase($0, trimmed) }) {
            return minValue + Double(position)
        }
        if unit == .boolean {
            switch trimmed.lowercased() {
            case "on", "true", "yes": return 1
            case "off", "false", "no": return 0
            default: break
            }
        }
        let (number, rest) = try scanNumber(Substring(trimmed))
        let suffix = PlainText.trimmed(rest, newlines: false)
        return number * (try scale(for: suffix))
    }

    private func scale(for suffix: String) throws(ValueParsingError) -> Double {
        if suffix.isEmpty { return 1 }
        let lowered = suffix.lowercased()
        if let unitName, !unitName.isEmpty, lowered == unitName.lowercased() { return 1 }
        for entry in ValueParser.suffixes where entry.names.contains(lowered) {
            if let scale = entry.scales[unit] { return scale }
        }
        if ValueParser.suffixes.contains(where: { $0.names.contains(lowered) }) {
            throw .suffixMismatch(suffix: suffix, unit: unit)
        }
        throw .unknownSuffix(suffix)
    }

    private static let suffixes: [(names: Set<String>, scales: [ParameterUnit: Double])] = [
        (["db"], [.decibels: 1]),
        (["hz"], [.hertz: 1]),
        (["khz"], [.hertz: 1000]),
        (["s", "sec", "secs"], [.seconds: 1, .milliseconds: 1000]),
        (["ms", "msec"], [.seconds: 0.001, .milliseconds: 1]),
        (["%"], [.percent: 1]),
        (["°", "deg", "degrees"], [.degrees: 1, .phase: 1]),
        (["cents", "cent", "ct"], [.cents: 1, .absoluteCents: 1]),
        (["bpm"], [.bpm: 1]),
        (["x"], [.rate: 1, .ratio: 1]),
        (["st", "semitones"], [.relativeSemiTones: 1]),
        (["oct"], [.octaves: 1]),
        (["beats"], [.beats: 1]),
        (["samples"], [.sampleFrames: 1]),
    ]

    private static func isDigitGroup(_ text: Substring) -> Bool {
        let group = text.prefix(4)
        let digits = group.prefix(while: { $0.isASCII && $0.isNumber })
        return digits.count == 3
    }

    private func scanNumber(_ text: Substring) throws(ValueParsingError) -> (Double, Substring) {
        let symbols = NumberSymbols(locale: locale)
        let decimalSeparators: Set<Character> = [".", Character(symbols.decimalSeparator)]
        let groupingSeparators = Set([",", symbols.groupingSeparator].compactMap(\.first))
            .subtracting(decimalSeparators)
        var digits = ""
        var rest = text[...]
        if let first = rest.first, first == "+" || first == "-" || first == "\u{2212}" {
            if first != "+" { digits.append("-") }
            rest = rest.dropFirst()
            rest = rest.drop(while: { $0 == " " })
        }
        let lowered = rest.lowercased()
        for word in ["infinity", "inf", "∞"] where lowered.hasPrefix(word) {
            return (digits == "-" ? -.infinity : .infinity, rest.dropFirst(word.count))
        }
        if lowered.hasPrefix("nan") { throw .nan }
        var sawDigit = false
        var sawSeparator = false
        while let character = rest.first {
            if character.isASCII, character.isNumber {
                digits.append(character)
                sawDigit = true
            } else if decimalSeparators.contains(character), !sawSeparator {
                digits.append(".")
                sawSeparator = true
            } else if groupingSeparators.contains(character), sawDigit, !sawSeparator,
                ValueParser.isDigitGroup(rest.dropFirst())
            {
                // A grouping separator counts only before exactly three digits, so that "1,5"
                // (a decimal comma in the wrong locale) is refused instead of read as 15.
            } else {
                break
            }
            rest = rest.dropFirst()
        }
        guard sawDigit else { throw .notANumber(String(text)) }
        if let e = rest.first, e == "e" || e == "E" {
            var exponent = "e"
            var candidate = rest.dropFirst()
            if let sign = candidate.first, sign == "+" || sign == "-" {
                exponent.append(sign)
                candidate = candidate.dropFirst()
            }
            let exponentDigits = candidate.prefix(while: { $0.isASCII && $0.isNumber })
            if !exponentDigits.isEmpty {
                digits += exponent + exponentDigits
                rest = candidate.dropFirst(exponentDigits.count)
            }
        }
        guard let value = Double(digits) else { throw .notANumber(String(text)) }
        return (value, rest)
    }
}

extension ValueParser {
    /// The text with `°` as `deg`, the Unicode minus and non-breaking spaces as ASCII, and any
    /// other character outside ASCII as `?`.
    static func ascii(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "°" {
                result += "deg"
            } else if scalar == "\u{2212}" {
                result += "-"
            } else if scalar == "\u{A0}" || scalar == "\u{202F}" {
                result += " "
            } else if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else {
                result += "?"
            }
        }
        return result
    }
}
