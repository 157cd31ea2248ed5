/// Why a server cannot be created or started, or why a url given by a peer is refused.
public enum KnobLinkServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `root` is not `""` or an address such as `/inst1`.
    case invalidRoot(String)
    /// A url that the server cannot send to.
    case invalidURL(String, reason: String)
    /// A link refused because the server has `limit` links already (`--max-links`).
    case tooManyLinks(String, limit: Int)
    /// A tree reload refused: the file is unreadable or not a valid tree, or none was given.
    /// The server goes on with the tree it had.
    case treeNotReloaded(reason: String)

    /// A one-line English message.
    public var description: String {
        switch self {
        case .invalidRoot(let root): "invalid root '\(root)': expected '' or an address such as /inst1"
        case .invalidURL(let url, let reason): "invalid url '\(url)': \(reason)"
        case .tooManyLinks(let url, let limit):
            "no link to '\(url)': the server has \(limit) links already (--max-links)"
        case .treeNotReloaded(let reason): "tree not reloaded, the old one is kept: \(reason)"
        }
    }
}
