import Controls

/// Colours on the command line as audiowaveform writes them: `RRGGBB` or `RRGGBBAA` in
/// hexadecimal, alpha last, with an optional `#`.
enum WaveformColorOption {
    /// The colour written `text`, or `nil`.
    static func parse(_ text: String) -> RGBAColor? {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        func byte(_ shift: UInt32) -> UInt8 { UInt8((rgba >> shift) & 0xFF) }
        return RGBAColor(red8: byte(24), green: byte(16), blue: byte(8), alpha: byte(0))
    }

    /// What the errors say is expected.
    static let expected = "expected a colour as RRGGBB or RRGGBBAA in hexadecimal"
}
