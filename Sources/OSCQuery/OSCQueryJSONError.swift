/// Why ``OSCQueryJSONParser`` refused a text, with the byte offset where it became certain.
public enum OSCQueryJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is longer than the parser's limit.
    case tooLarge(size: Int, limit: Int)
    /// Arrays and objects are nested deeper than the parser's limit; `offset` is the opening bracket.
    case tooDeep(offset: Int, limit: Int)
    /// The text ended inside a value.
    case unexpectedEnd(offset: Int)
    /// A byte that cannot come here.
    case unexpectedByte(UInt8, offset: Int)
    /// A number that RFC 8259 section 6 does not allow (a leading zero, a lone `-`, `1.`, `1e`).
    case invalidNumber(offset: Int)
    /// A backslash escape that section 7 does not allow, or a `\u` escape of a lone surrogate.
    case invalidEscape(offset: Int)
    /// A control character (below U+0020) inside a string, which must be escaped.
    case controlCharacterInString(offset: Int)
    /// Bytes in a string that are not UTF-8.
    case invalidUTF8(offset: Int)
    /// An object has two members of the same name; `offset` is the second one.
    case duplicateKey(String, offset: Int)
    /// Something other than whitespace after the value.
    case trailingData(offset: Int)

    /// The offset in the text where the error was found.
    public var offset: Int {
        switch self {
        case .tooLarge(_, let limit): limit
        case .tooDeep(let offset, _), .unexpectedEnd(let offset), .unexpectedByte(_, let offset),
            .invalidNumber(let offset), .invalidEscape(let offset), .controlCharacterInString(let offset),
            .invalidUTF8(let offset), .duplicateKey(_, let offset), .trailingData(let offset):
            offset
        }
    }

    /// What was wrong and where, for a person reading it (`unexpected byte '}' at offset 7`).
    public var description: String {
        switch self {
        case .tooLarge(let size, let limit): "the text is \(size) bytes, more than the limit of \(limit)"
        case .tooDeep(let offset, let limit): "nested deeper than \(limit) levels at offset \(offset)"
        case .unexpectedEnd(let offset): "the text ends inside a value at offset \(offset)"
        case .unexpectedByte(let byte, let offset): "unexpected \(Self.describe(byte)) at offset \(offset)"
        case .invalidNumber(let offset): "invalid number at offset \(offset)"
        case .invalidEscape(let offset): "invalid escape at offset \(offset)"
        case .controlCharacterInString(let offset): "unescaped control character in a string at offset \(offset)"
        case .invalidUTF8(let offset): "invalid UTF-8 at offset \(offset)"
        case .duplicateKey(let key, let offset): "duplicate key \"\(key)\" at offset \(offset)"
        case .trailingData(let offset): "unexpected data after the value at offset \(offset)"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}
