/// Base64 with the standard alphabet and padding (RFC 4648 section 4).
///
/// Decoding is strict, because its one use is checking a `Sec-WebSocket-Key`: a length that is
/// not a multiple of 4, a character outside the alphabet (whitespace included), `=` anywhere but
/// at the end, or non-zero bits in the last character's unused low bits (RFC 4648 section 3.5
/// lets a decoder refuse those) all make the text invalid, so that each byte string has exactly
/// one accepted encoding.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The Base64 text of `bytes`, padded with `=` to a multiple of 4 characters.
    /// - Complexity: O(n).
    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let available = min(3, bytes.count - index)
            let first = bytes[index]
            let second = available > 1 ? bytes[index + 1] : 0
            let third = available > 2 ? bytes[index + 2] : 0
            text.append(alphabet[Int(first >> 2)])
            text.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
            text.append(available > 1 ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : UInt8(ascii: "="))
            text.append(available > 2 ? alphabet[Int(third & 0x3F)] : UInt8(ascii: "="))
            index += available
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes that `text` encodes, or `nil` if it is not strict Base64 (see the type's discussion).
    /// - Complexity: O(n).
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 4 * 3)
        var group = 0
        while group < characters.count {
            let isLast = group + 4 == characters.count
            let padding =
                isLast ? characters[(group + 2)...].reversed().prefix { $0 == UInt8(ascii: "=") }.count : 0
            var values: [UInt8] = []
            for character in characters[group..<(group + 4 - padding)] {
                guard let value = sextet(character) else { return nil }
                values.append(value)
            }
            bytes.append(values[0] << 2 | values[1] >> 4)
            switch padding {
            case 0:
                bytes.append(values[1] << 4 | values[2] >> 2)
                bytes.append(values[2] << 6 | values[3])
            case 1:
                guard values[2] & 0x03 == 0 else { return nil }
                bytes.append(values[1] << 4 | values[2] >> 2)
            default:
                guard values[1] & 0x0F == 0 else { return nil }
            }
            group += 4
        }
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
