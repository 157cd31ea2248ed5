/// Why a text is not a CIDR block (`--allow` and `AllowList(parsing:)`).
public enum CIDRError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is empty.
    case empty
    /// The address part is not an IPv4 or IPv6 address; `reason` says what is wrong.
    case invalidAddress(String, reason: String)
    /// The prefix length is not a number from 0 to 32 (IPv4) or 0 to 128 (IPv6).
    case invalidPrefixLength(String, maximum: Int)

    /// `'10.0.0.300/8': octet '300' is larger than 255`, and so on.
    public var description: String {
        switch self {
        case .empty:
            "empty CIDR block (expected an address with an optional /prefix, or 'any')"
        case .invalidAddress(let text, let reason):
            "'\(text)': \(reason)"
        case .invalidPrefixLength(let text, let maximum):
            "'\(text)': the prefix length must be a number from 0 to \(maximum)"
        }
    }
}
