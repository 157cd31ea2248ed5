#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The decimal and grouping separators of a locale, from a built-in table of CLDR's number
/// symbols, so that formatting and parsing need no ICU (CONTROLS.md 1.7).
///
/// The table covers the common languages of Europe and East Asia; any other locale uses the
/// `en` symbols (`.` and `,`, groups of three: the Indian `10,00,000` is not made). A locale's
/// region refines its language where CLDR differs (`de_CH` groups with `’`, `pt_PT` with a
/// no-break space). The tests hold every entry to ICU's own symbols.
public struct NumberSymbols: Sendable, Hashable {
    /// The decimal separator: `.` or `,`.
    public var decimalSeparator: String
    /// The separator between groups of three integer digits.
    public var groupingSeparator: String
    /// How many digits the highest group needs before grouping applies: 1 (`1,234`) or 2
    /// (`1234` but `12 345`, as in Spanish and Polish).
    public var minimumGroupingDigits: Int
    /// The sign of a negative number: `-`, or `−` (U+2212) as in Swedish and Finnish.
    public var minusSign: String

    /// Symbols given directly.
    public init(
        decimalSeparator: String, groupingSeparator: String, minimumGroupingDigits: Int = 1, minusSign: String = "-"
    ) {
        self.decimalSeparator = decimalSeparator
        self.groupingSeparator = groupingSeparator
        self.minimumGroupingDigits = minimumGroupingDigits
        self.minusSign = minusSign
    }

    /// `.` and `,`, as in `en_US`.
    public static let english = NumberSymbols(decimalSeparator: ".", groupingSeparator: ",")

    /// The symbols of `locale` (its identifier, such as `de_DE` or `fr-CA`).
    public init(locale: Locale) {
        let identifier = locale.identifier
        // The default locale of every formatter and parser, without parsing its name each time.
        self = identifier == "en_US" ? .english : Self.symbols(forIdentifier: identifier)
    }

    /// The symbols of a locale identifier: language, then an optional script and region,
    /// separated by `_` or `-` (`en_US`, `sr-Latn-RS`, `de_CH@currency=CHF`).
    public static func symbols(forIdentifier identifier: String) -> NumberSymbols {
        let base = identifier.prefix { $0 != "@" && $0 != "." }
        let parts = base.split { $0 == "_" || $0 == "-" }.map { $0.lowercased() }
        guard let language = parts.first else { return .english }
        let region = parts.dropFirst().first { $0.count == 2 || $0.count == 3 && $0.allSatisfy(\.isNumber) }
        if let region, let symbols = byRegion[language + "_" + region] { return symbols }
        return byLanguage[language] ?? .english
    }

    private static let byLanguage: [String: NumberSymbols] = {
        let nbsp = "\u{A0}"
        let minus = "\u{2212}"
        // Languages, then their decimal separator, grouping separator, the digits the highest
        // group needs, and the minus sign (CLDR, as ICU has it).
        let rows: [([String], String, String, Int, String)] = [
            (["de", "nl", "pt", "id", "tr", "da", "el", "ro", "sr", "vi", "ca", "is"], ",", ".", 1, "-"),
            (["it"], ",", ".", 2, "-"),
            (["es"], ",", ".", 2, "-"),
            (["hr"], ",", ".", 1, minus),
            (["sl"], ",", ".", 2, minus),
            (["ru", "uk", "cs", "sk"], ",", nbsp, 1, "-"),
            (["hu", "bg", "lv", "be", "pl"], ",", nbsp, 2, "-"),
            (["et"], ",", nbsp, 2, minus),
            (["sv", "fi", "nb", "no", "nn", "lt"], ",", nbsp, 1, minus),
            (["fr"], ",", "\u{202F}", 1, "-"),
        ]
        var table: [String: NumberSymbols] = [:]
        for (languages, decimal, group, minimumGroup, minusSign) in rows {
            for language in languages {
                table[language] = NumberSymbols(
                    decimalSeparator: decimal, groupingSeparator: group, minimumGroupingDigits: minimumGroup,
                    minusSign: minusSign)
            }
        }
        return table
    }()

    private static let byRegion: [String: NumberSymbols] = [
        "de_ch": NumberSymbols(decimalSeparator: ".", groupingSeparator: "\u{2019}"),
        "de_li": NumberSymbols(decimalSeparator: ".", groupingSeparator: "\u{2019}"),
        "it_ch": NumberSymbols(decimalSeparator: ".", groupingSeparator: "\u{2019}", minimumGroupingDigits: 2),
        "pt_pt": NumberSymbols(decimalSeparator: ",", groupingSeparator: "\u{A0}", minimumGroupingDigits: 2),
        "es_mx": .english, "es_us": .english, "es_419": .english,
    ]
}
