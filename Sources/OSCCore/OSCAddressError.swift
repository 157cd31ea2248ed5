/// Why a byte sequence is not a valid OSC address or address pattern, and where.
///
/// Every offset counts bytes from the first byte of the address (its leading `/`).
public enum OSCAddressError: Error, Sendable, Hashable {
    /// The address has no bytes at all.
    case empty
    /// The address starts with `found` instead of `/`.
    case missingLeadingSlash(found: UInt8)
    /// A part of the address is empty: a `/` at the end, `//` in an address, or `///` in a pattern.
    /// `offset` is where the missing part should start.
    case emptySegment(offset: Int)
    /// The byte at `offset` is never allowed: a control character, a space, DEL, a byte outside
    /// ASCII, or `#`.
    case invalidCharacter(UInt8, offset: Int)
    /// The byte at `offset` is one of the pattern characters `* ? [ ] { } ,`, which an address
    /// (as opposed to a pattern) may not contain.
    case patternCharacterInAddress(UInt8, offset: Int)
    /// The byte at `offset` (`]`, `}` or `,`) closes or separates nothing in a pattern.
    case unexpectedCharacter(UInt8, offset: Int)
    /// The `[` at `offset` has no matching `]`.
    case unterminatedBracket(offset: Int)
    /// The `{` at `offset` has no matching `}`.
    case unterminatedBrace(offset: Int)
    /// The range starting at `offset` inside brackets goes downwards (`[z-a]`).
    case invalidRange(lower: UInt8, upper: UInt8, offset: Int)
    /// The `/` at `offset` is inside brackets, which match one character of one part.
    case slashInBrackets(offset: Int)
    /// The `{` at `offset` is inside another `{…}`.
    case nestedBrace(offset: Int)
    /// The byte at `offset` (`/`, `*`, `?`, `[` or `]`) is inside `{…}`, whose alternatives are
    /// literal strings.
    case characterNotAllowedInBraces(UInt8, offset: Int)

    /// The byte offset that the error names.
    public var offset: Int {
        switch self {
        case .empty, .missingLeadingSlash:
            0
        case .emptySegment(let offset), .invalidCharacter(_, let offset), .patternCharacterInAddress(_, let offset),
            .unexpectedCharacter(_, let offset), .unterminatedBracket(let offset), .unterminatedBrace(let offset),
            .invalidRange(_, _, let offset), .slashInBrackets(let offset), .nestedBrace(let offset),
            .characterNotAllowedInBraces(_, let offset):
            offset
        }
    }
}

extension OSCAddressError: CustomStringConvertible {
    /// A one-line English description naming the offset, suitable for a `/sys/error` reply.
    public var description: String {
        switch self {
        case .empty:
            return "empty address"
        case .missingLeadingSlash(let found):
            return "address starts with \(Self.show(found)) instead of '/'"
        case .emptySegment(let offset):
            return "empty address part at offset \(offset)"
        case .invalidCharacter(let byte, let offset):
            return "invalid character \(Self.show(byte)) at offset \(offset)"
        case .patternCharacterInAddress(let byte, let offset):
            return "pattern character \(Self.show(byte)) in an address at offset \(offset)"
        case .unexpectedCharacter(let byte, let offset):
            return "unexpected \(Self.show(byte)) at offset \(offset)"
        case .unterminatedBracket(let offset):
            return "'[' at offset \(offset) has no matching ']'"
        case .unterminatedBrace(let offset):
            return "'{' at offset \(offset) has no matching '}'"
        case .invalidRange(let lower, let upper, let offset):
            return "range \(Self.show(lower))-\(Self.show(upper)) at offset \(offset) goes downwards"
        case .slashInBrackets(let offset):
            return "'/' inside brackets at offset \(offset)"
        case .nestedBrace(let offset):
            return "nested '{' at offset \(offset)"
        case .characterNotAllowedInBraces(let byte, let offset):
            return "\(Self.show(byte)) inside braces at offset \(offset)"
        }
    }

    private static func show(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0\(hex)" : "0x\(hex)"
    }
}
