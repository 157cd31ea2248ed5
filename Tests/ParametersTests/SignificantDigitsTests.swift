import Foundation
import Testing

@testable import Parameters

/// KnobLink formats numbers without ICU (``SignificantDigits``, ``NumberSymbols``); these tests
/// hold it to ICU's own output, through Foundation's `FloatingPointFormatStyle`, which this test
/// target links.
@Suite struct SignificantDigitsTests {
    static let locales = [
        "en_US", "en_GB", "de_DE", "de_AT", "de_CH", "fr_FR", "es_ES", "it_IT", "nl_NL", "pt_BR", "pt_PT", "pl_PL",
        "ru_RU", "sv_SE", "cs_CZ", "ja_JP", "zh_CN", "ko_KR", "da_DK", "fi_FI", "tr_TR", "it_CH", "de_LI", "es_MX",
        "es_US", "es_419", "id_ID", "el_GR", "ro_RO", "hr_HR", "sl_SI", "sr_RS", "vi_VN", "ca_ES", "is_IS", "uk_UA",
        "sk_SK", "nb_NO", "nn_NO", "hu_HU", "bg_BG", "lt_LT", "lv_LV", "et_EE", "be_BY", "th_TH",
    ]
    static let ranges: [ClosedRange<Int>] = [1...2, 1...3, 1...4, 1...6, 2...4, 3...3, 1...1]

    /// Halfway cases, carries, powers of ten, the extremes of a double.
    static let edges: [Double] = [
        0, 0.5, 1, 12.5, 12.34, 1.23, 445, 455, 0.125, 1234.5, 12345, 99.95, 0.96101229, 2.675, 1.005, 9.995, 0.0001,
        0.000125, 999.5, 9999.5, 1e6, 1234567.891, 1e15, 1e21, 1.5e300, .leastNonzeroMagnitude, 2.2250738585072014e-308,
        0.1, 0.3,
        20000, 36, 18, 100, 1000, 10000, 100000, 123456789, 4812.6, 250, -6, -0.5, -12.5, -1234.5, -0.000125,
    ]

    /// Deterministic values over eighteen orders of magnitude, with few and many digits.
    static func randomValues(count: Int) -> [Double] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<count).map { index in
            let exponent = Double(Int(next() % 19) - 7)
            let mantissa = Double(next() % 1_000_000) / 100_000
            let value = mantissa * pow(10, exponent)
            // Every third value has only a few digits, so that halfway cases come up often.
            let rounded = index % 3 == 0 ? (value * 1000).rounded() / 1000 : value
            return index % 5 == 0 ? -rounded : rounded
        }
    }

    static func icu(_ value: Double, _ digits: ClosedRange<Int>, _ locale: Locale, grouping: Bool) -> String {
        var style = FloatingPointFormatStyle<Double>(locale: locale).precision(.significantDigits(digits))
        if !grouping { style = style.grouping(.never) }
        return value.formatted(style)
    }

    @Test(arguments: locales)
    func agreesWithICU(_ identifier: String) {
        let locale = Locale(identifier: identifier)
        let symbols = NumberSymbols(locale: locale)
        var mismatches: [String] = []
        var compared = 0
        for value in Self.edges + Self.randomValues(count: 600) {
            for digits in Self.ranges {
                for grouping in [true, false] {
                    compared += 1
                    let ours = SignificantDigits.format(value, digits, symbols: symbols, grouping: grouping)
                    let theirs = Self.icu(value == 0 ? 0 : value, digits, locale, grouping: grouping)
                    if ours != theirs {
                        mismatches.append(
                            "\(value) \(digits) grouping \(grouping): \(ours.debugDescription) vs ICU \(theirs.debugDescription)"
                        )
                    }
                }
            }
        }
        #expect(compared > 8000)
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) of \(compared) differ: \(mismatches.prefix(8).joined(separator: "; "))")
    }

    @Test(arguments: locales)
    func separatorsAreICUs(_ identifier: String) {
        let locale = Locale(identifier: identifier)
        let symbols = NumberSymbols(locale: locale)
        #expect(symbols.decimalSeparator == locale.decimalSeparator)
        #expect(symbols.groupingSeparator == locale.groupingSeparator)
    }

    @Test func notANumberAndTheInfinities() {
        #expect(SignificantDigits.format(.nan, 1...2, symbols: .english, grouping: true) == "NaN")
        #expect(SignificantDigits.format(.infinity, 1...2, symbols: .english, grouping: true) == "∞")
        #expect(SignificantDigits.format(-.infinity, 1...2, symbols: .english, grouping: true) == "-∞")
    }

    @Test(arguments: [
        ("de-DE", ","), ("de_DE@currency=EUR", ","), ("sr-Latn-RS", ","), ("de_CH", "."), ("xx_YY", "."), ("", "."),
        ("es_419", "."), ("en_US_POSIX", "."),
    ])
    func identifiersAreReadByLanguageAndRegion(_ identifier: String, _ separator: String) {
        #expect(NumberSymbols.symbols(forIdentifier: identifier).decimalSeparator == separator)
    }
}
