extension RGBAColor {
    /// Parses a hexadecimal colour.
    ///
    /// Leading spaces and then one `#` or `0x` are skipped. Three digits are RGB with each digit
    /// repeated (×17), six are RGB, eight are **A**RGB. Anything else, or an empty string, gives
    /// `nil`. 0x80 reads as 128/255 ≈ 0.5019608.
    public init?(hex text: String) {
        var digits = Substring(text.drop { $0 == " " })
        if digits.hasPrefix("#") {
            digits = digits.dropFirst()
        } else if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
        }
        guard [3, 6, 8].contains(digits.count), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        func byte(_ shift: UInt32) -> UInt8 { UInt8((value >> shift) & 0xFF) }
        switch digits.count {
        case 3:
            let nibbles = [(value >> 8) & 0xF, (value >> 4) & 0xF, value & 0xF].map { UInt8($0 * 17) }
            self.init(red8: nibbles[0], green: nibbles[1], blue: nibbles[2])
        case 6:
            self.init(red8: byte(16), green: byte(8), blue: byte(0))
        default:
            self.init(red8: byte(16), green: byte(8), blue: byte(0), alpha: byte(24))
        }
    }
}
