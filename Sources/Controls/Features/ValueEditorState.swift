import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The value editor of one control: what it shows, what it accepts, and how it ended.
///
/// A knob opens it in its own state (there is no process-wide slot), so each control surface
/// can show the editors of its own knobs. Keystrokes go through ``accepting(_:)``; the text is a
/// snapshot and does not follow parameter changes made while editing.
public struct ValueEditorState: Sendable, Equatable {
    /// Whether a kind of character may be typed.
    public enum Permission: Sendable, Equatable {
        /// It may.
        case allowed
        /// It may not.
        case none
    }

    /// Where the editor is in its life.
    public enum Phase: Sendable, Equatable {
        /// Shown, waiting for the user.
        case presented
        /// Closed with OK (the text) or Cancel (`nil`).
        case dismissed(String?)
    }

    /// The identifier of the knob being edited.
    public var id: UInt64
    /// The editor's title: the knob's name.
    public var displayName: String
    /// The text in the field, pre-filled with the value for editing.
    public var value: String
    /// The theme to draw the editor with.
    public var theme: Theme
    /// Whether a decimal separator may be typed.
    public var decimalAllowed: Permission
    /// Whether one leading sign may be typed (only when the range goes below zero).
    public var signAllowed: Permission
    /// The locale's decimal separator ("." or "," and so on).
    public var decimalSeparator: String
    /// Whether a unit suffix may follow the number (`-6 dB`, `1.2kHz`, `250ms`): letters,
    /// spaces, `%` and `°` after at least one digit (SURFACES.md §2).
    public var suffixAllowed: Permission = .none
    /// Presented or dismissed.
    public var phase: Phase

    /// Creates an editor state.
    public init(
        id: UInt64,
        displayName: String,
        value: String,
        theme: Theme,
        decimalAllowed: Permission = .allowed,
        signAllowed: Permission = .none,
        decimalSeparator: String = ".",
        suffixAllowed: Permission = .none,
        phase: Phase = .presented
    ) {
        self.suffixAllowed = suffixAllowed
        self.id = id
        self.displayName = displayName
        self.value = value
        self.theme = theme
        self.decimalAllowed = decimalAllowed
        self.signAllowed = signAllowed
        self.decimalSeparator = decimalSeparator
        self.phase = phase
    }

    /// The decimal separator of `locale` (`NumberSymbols`: "," for `de_DE`, "." for `en_US`).
    public static func decimalSeparator(of locale: Locale) -> String {
        NumberSymbols(locale: locale).decimalSeparator
    }

    /// Whether `text` may stand in the field.
    ///
    /// With signs allowed one leading "+", "-" or "−" is skipped; with decimals allowed at most
    /// one decimal separator may appear; every other character must be a digit, except that
    /// with a suffix allowed the number may be followed by a unit. The empty string, "+" and
    /// "+10.0" are valid; "+10-" and "10.0." are not; with a suffix, "-6 dB" is.
    public func isValid(_ text: String) -> Bool {
        var rest = Substring(text)
        if signAllowed == .allowed, let first = rest.first, "+-−".contains(first) {
            rest = rest.dropFirst()
        }
        if suffixAllowed == .allowed, let end = rest.firstIndex(where: { $0.isLetter || "% °".contains($0) }) {
            let suffix = rest[end...]
            guard end > rest.startIndex, suffix.allSatisfy({ $0.isLetter || "% °".contains($0) }) else { return false }
            rest = rest[..<end]
        }
        let separator = decimalAllowed == .allowed ? decimalSeparator : ""
        if !separator.isEmpty, rest.components(separatedBy: separator).count > 2 {
            return false
        }
        let withoutSeparator = separator.isEmpty ? String(rest) : String(rest.replacing(separator, with: ""))
        return withoutSeparator.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The field's text after the user typed `text`: `text` if valid, else the old text.
    public func accepting(_ text: String) -> String {
        isValid(text) ? text : value
    }

    /// The number in `text`, reading the locale's decimal separator; `nil` if it is not one.
    ///
    /// "1,5" with a comma separator is 1.5 (the original silently ignored it).
    public func parse(_ text: String) -> Double? {
        Self.parse(text, decimalSeparator: decimalSeparator)
    }

    /// The number in `text` written with `decimalSeparator`; `nil` if it is not one.
    public static func parse(_ text: String, decimalSeparator: String) -> Double? {
        var normalized = PlainText.trimmed(text, newlines: false)
        if normalized.hasPrefix("−") {
            normalized = "-" + normalized.dropFirst()
        }
        if decimalSeparator != "." {
            guard !normalized.contains(".") else { return nil }
            normalized = normalized.replacing(decimalSeparator, with: ".")
        }
        guard let number = Double(normalized), number.isFinite else { return nil }
        return number
    }
}
