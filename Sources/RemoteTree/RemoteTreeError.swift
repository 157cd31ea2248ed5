/// Why a ``RemoteParameterTree`` could not mirror a server.
///
/// Each case says what a user can act on: the server is not there, it is not a KnobLink server,
/// or what it sent cannot be a tree.
public enum RemoteTreeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host name does not resolve, or the URL cannot be used.
    case invalidURL(String, reason: String)
    /// A socket could not be opened or the TCP connection was refused or timed out.
    case unreachable(String, reason: String)
    /// Nothing answered within the time allowed.
    case noAnswer(String, seconds: Double)
    /// Something answered, but not as a KnobLink server does (`/sys/error` for `/sys/list`,
    /// bytes that are not OSC).
    case notKnobLink(String, reason: String)
    /// Something answered on the HTTP port, but not as an OSCQuery server does (no JSON, a
    /// failed WebSocket handshake).
    case notOSCQuery(String, reason: String)
    /// The listing started but did not end within the time allowed (datagrams lost, or a
    /// server that never closes its `/sys/update` bracket).
    case incompleteList(String, reason: String)
    /// The listing cannot be a tree: too many nodes, an address that is not a valid key path,
    /// a range the tree refuses.
    case invalidList(String, reason: String)
    /// The connection was lost while connecting.
    case connectionClosed(String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "\(url): \(reason)"
        case .unreachable(let url, let reason): "\(url) is not reachable: \(reason)"
        case .noAnswer(let url, let seconds):
            "no answer from \(url) within \(Self.text(seconds)) s (is a KnobLink server running there?)"
        case .notKnobLink(let url, let reason): "\(url) does not answer like a KnobLink server: \(reason)"
        case .notOSCQuery(let url, let reason): "\(url) does not answer like an OSCQuery server: \(reason)"
        case .incompleteList(let url, let reason): "the parameter list from \(url) is incomplete: \(reason)"
        case .invalidList(let url, let reason): "the parameter list from \(url) cannot be mirrored: \(reason)"
        case .connectionClosed(let url): "\(url) closed the connection"
        }
    }

    private static func text(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
