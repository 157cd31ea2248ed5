import OSCCore

extension OSCDecodingError {
    /// The reason that `dump` prints for a malformed packet: what is wrong, then where.
    var reason: String {
        let what: String
        switch self {
        case .emptyPacket: what = "empty packet"
        case .misaligned(let size, _): what = "size \(size) is not a multiple of 4"
        case .truncated(let needed, let available, _): what = "truncated: \(needed) bytes needed, \(available) left"
        case .unterminatedString: what = "string without a terminating NUL"
        case .nonZeroPadding: what = "non-zero padding"
        case .invalidAddress: what = "address does not start with '/'"
        case .missingTypeTags: what = "no type tag string"
        case .typeTagsWithoutComma: what = "type tag string does not start with ','"
        case .unknownTypeTag(let tag, _): what = "unknown type tag \(Self.quoted(tag))"
        case .blobSizeOutOfBounds(let size, let available, _):
            what = "blob size \(size) out of bounds (\(available) bytes left)"
        case .elementSizeOutOfBounds(let size, let available, _):
            what = "bundle element size \(size) out of bounds (\(available) bytes left)"
        case .bundleNestingTooDeep(let depth, _): what = "bundles nested too deep (\(depth))"
        case .arrayNestingTooDeep(let depth, _): what = "arrays nested too deep (\(depth))"
        case .unclosedArray: what = "'[' without ']'"
        case .unbalancedArrayEnd: what = "']' without '['"
        case .badBundleHeader: what = "starts with '#' but not with '#bundle'"
        case .trailingBytes(let count, _): what = "\(count) bytes after the last argument"
        }
        return "\(what) at byte \(offset)"
    }

    private static func quoted(_ byte: UInt8) -> String {
        (0x21..<0x7f).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
    }
}
