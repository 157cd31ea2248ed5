/// Why a server cannot be created or started, or why a url given by a peer is refused.
public enum KnobLinkServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `root` is not `""` or an address such as `/inst1`.
    case invalidRoot(String)
    /// A url that the server cannot send to.
    case invalidURL(String, reason: String)

    /// A one-line English message.
    public var description: String {
        switch self {
        case .invalidRoot(let root): "invalid root '\(root)': expected '' or an address such as /inst1"
        case .invalidURL(let url, let reason): "invalid url '\(url)': \(reason)"
        }
    }
}
