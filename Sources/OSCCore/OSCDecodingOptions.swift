/// What the decoder accepts beyond the strict letter of OSC 1.0 and 1.1.
///
/// The ``default`` accepts everything that liblo 0.31 and python-osc 1.10 send, including a message
/// without a type tag string (OSC 1.0 asks receivers to cope with it), and refuses the rest;
/// ``strict`` also refuses what only a broken sender produces. Docs/OSC.md lists the exact rules.
public struct OSCDecodingOptions: Sendable, Hashable {
    /// Treat a message whose address is followed by nothing as a message without arguments.
    /// Default `true`; when `false` such a message throws ``OSCDecodingError/missingTypeTags(offset:)``.
    public var allowsMissingTypeTags: Bool
    /// Refuse padding bytes that are not zero (``OSCDecodingError/nonZeroPadding(offset:)``),
    /// as liblo does. Default `false`: the padding is skipped unread.
    public var requiresZeroPadding: Bool
    /// Refuse an address that does not start with `/` (``OSCDecodingError/invalidAddress(offset:)``).
    /// Default `true`.
    public var requiresSlashAddress: Bool
    /// Accept bytes after a message's last argument and ignore them. Default `false`:
    /// they throw ``OSCDecodingError/trailingBytes(count:offset:)``, as liblo refuses them.
    public var allowsTrailingBytes: Bool
    /// The deepest bundle nesting accepted; a top-level bundle is depth 1. Default 8; values above
    /// ``depthCeiling`` act as ``depthCeiling``.
    public var maximumBundleDepth: Int
    /// The deepest array nesting accepted; `[i]` is depth 1. Default 8; values above
    /// ``depthCeiling`` act as ``depthCeiling``.
    public var maximumArrayDepth: Int

    /// The hard limit on both nesting depths, whatever the options say.
    ///
    /// Decoding and reading nested bundles and arrays recurse once per level; the ceiling keeps
    /// that recursion far inside the smallest thread stack (512 KiB), so that a crafted packet of
    /// thousands of `[` or nested bundles is refused instead of overflowing the stack.
    public static let depthCeiling = 64

    /// Creates options; every parameter defaults to the value of ``default``.
    public init(
        allowsMissingTypeTags: Bool = true,
        requiresZeroPadding: Bool = false,
        requiresSlashAddress: Bool = true,
        allowsTrailingBytes: Bool = false,
        maximumBundleDepth: Int = 8,
        maximumArrayDepth: Int = 8
    ) {
        self.allowsMissingTypeTags = allowsMissingTypeTags
        self.requiresZeroPadding = requiresZeroPadding
        self.requiresSlashAddress = requiresSlashAddress
        self.allowsTrailingBytes = allowsTrailingBytes
        self.maximumBundleDepth = maximumBundleDepth
        self.maximumArrayDepth = maximumArrayDepth
    }

    /// Accepts what liblo and python-osc send, refuses the rest.
    public static let `default` = OSCDecodingOptions()

    /// Also refuses non-zero padding and messages without a type tag string.
    public static let strict = OSCDecodingOptions(allowsMissingTypeTags: false, requiresZeroPadding: true)
}
