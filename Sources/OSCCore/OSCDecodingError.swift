/// Why a byte sequence is not a valid OSC packet, and where.
///
/// Every offset counts bytes from the start of the buffer handed to the decoder (for a message
/// inside a bundle, from the start of the outermost bundle).
public enum OSCDecodingError: Error, Sendable, Hashable {
    /// The packet (or a bundle element) has no bytes at all.
    case emptyPacket(offset: Int)
    /// The packet (or a bundle element) is `size` bytes long, which is not a multiple of 4.
    case misaligned(size: Int, offset: Int)
    /// An item starting at `offset` needs `needed` bytes but only `available` remain.
    case truncated(needed: Int, available: Int, offset: Int)
    /// The string (address, type tags, `s` or `S` argument) starting at `offset` has no NUL before the end.
    case unterminatedString(offset: Int)
    /// A padding byte at `offset` is not zero (refused only when
    /// ``OSCDecodingOptions/requiresZeroPadding`` is set).
    case nonZeroPadding(offset: Int)
    /// The address at `offset` does not start with `/` (refused only when
    /// ``OSCDecodingOptions/requiresSlashAddress`` is set).
    case invalidAddress(offset: Int)
    /// The message has no type tag string (refused only when
    /// ``OSCDecodingOptions/allowsMissingTypeTags`` is off); `offset` is where it should start.
    case missingTypeTags(offset: Int)
    /// What follows the address at `offset` does not start with `,`.
    case typeTagsWithoutComma(offset: Int)
    /// The type tag `tag` at `offset` is not one that OSC 1.0 or 1.1 defines.
    case unknownTypeTag(UInt8, offset: Int)
    /// The blob whose size field is at `offset` declares `size` bytes, negative or past the end
    /// (`available` bytes remain after the size field).
    case blobSizeOutOfBounds(size: Int, available: Int, offset: Int)
    /// The bundle element whose size field is at `offset` declares `size` bytes, negative or past
    /// the end (`available` bytes remain after the size field).
    case elementSizeOutOfBounds(size: Int, available: Int, offset: Int)
    /// The bundle at `offset` would be nested `depth` deep, more than the limit
    /// (``OSCDecodingOptions/maximumBundleDepth``; a top-level bundle is depth 1).
    case bundleNestingTooDeep(depth: Int, offset: Int)
    /// The array opened by the `[` at `offset` would be nested deeper than
    /// ``OSCDecodingOptions/maximumArrayDepth``.
    case arrayNestingTooDeep(depth: Int, offset: Int)
    /// The `[` type tag at `offset` has no matching `]`.
    case unclosedArray(offset: Int)
    /// The `]` type tag at `offset` closes no array.
    case unbalancedArrayEnd(offset: Int)
    /// The packet at `offset` starts with `#` but not with `#bundle` and a NUL.
    case badBundleHeader(offset: Int)
    /// The message's arguments end at `offset`, but the message has bytes after it (refused
    /// unless ``OSCDecodingOptions/allowsTrailingBytes`` is set).
    case trailingBytes(count: Int, offset: Int)

    /// The byte offset that the error names.
    public var offset: Int {
        switch self {
        case .emptyPacket(let offset), .misaligned(_, let offset), .truncated(_, _, let offset),
            .unterminatedString(let offset), .nonZeroPadding(let offset), .invalidAddress(let offset),
            .missingTypeTags(let offset), .typeTagsWithoutComma(let offset), .unknownTypeTag(_, let offset),
            .blobSizeOutOfBounds(_, _, let offset), .elementSizeOutOfBounds(_, _, let offset),
            .bundleNestingTooDeep(_, let offset), .arrayNestingTooDeep(_, let offset),
            .unclosedArray(let offset), .unbalancedArrayEnd(let offset), .badBundleHeader(let offset),
            .trailingBytes(_, let offset):
            offset
        }
    }
}
