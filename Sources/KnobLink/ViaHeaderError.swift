/// Why a bundle is not a link bundle (`/sys/via i ttl s id…` first, then values).
public enum ViaHeaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The packet is a message, not a bundle, or the bundle is empty.
    case notABundle
    /// The bundle's first element is not a `/sys/via` message.
    case noViaHeader
    /// The `/sys/via` message's arguments are not `i ttl` followed by strings; `reason` says which.
    case invalidHeader(reason: String)

    /// `/sys/via: the ttl must be an int32 ('i'), got 'f'`, and so on.
    public var description: String {
        switch self {
        case .notABundle: "not a bundle"
        case .noViaHeader: "the bundle does not start with /sys/via"
        case .invalidHeader(let reason): "/sys/via: \(reason)"
        }
    }
}
