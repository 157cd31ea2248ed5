import OSCTransport

/// Where a peer's replies and feedback go: the one place that knows the three kinds of peer
/// (PROTOCOL.md section 9.1). Everything else in the server treats a peer the same whatever
/// its transport, and asks its destination only what differs: its limit, whether it is gone,
/// and how its packets are written (``ServerCore/emit(_:)``).
enum PeerDestination {
    /// A UDP reply address (the sender's IP with the feedback port, or a url's).
    case udp(OSCSocketAddress)
    /// An OSC stream over TCP, framed like the connection (SLIP or length prefix).
    case tcp(OSCTCPConnection)
    /// A WebSocket on the server's TCP port (PROTOCOL.md section 7): one OSC message a binary frame.
    case webSocket(WebSocketSession)

    var id: PeerID {
        switch self {
        case .udp(let address): .udp(address)
        case .tcp(let connection): .tcp(ObjectIdentifier(connection))
        case .webSocket(let session): .tcp(ObjectIdentifier(session.connection))
        }
    }

    /// The connection of a TCP or WebSocket peer.
    var connection: OSCTCPConnection? {
        switch self {
        case .udp: nil
        case .tcp(let connection): connection
        case .webSocket(let session): session.connection
        }
    }

    /// Whether the peer's connection closed (a UDP destination never does).
    var isClosed: Bool { connection?.isClosed ?? false }

    /// Whether a peer here becomes a subscriber by sending to a parameter (rule 9.7): a
    /// WebSocket peer gets only what it LISTENs to.
    var subscribesImplicitly: Bool {
        if case .webSocket = self { return false }
        return true
    }

    /// The largest packet sent at once (rule 9.14): 8192 bytes on loopback, 1472 elsewhere, and
    /// streams have no datagrams (64 KiB keeps the write queue's pieces reasonable).
    var datagramLimit: Int {
        switch self {
        case .udp(let address): address.isLoopback ? 8192 : 1472
        case .tcp, .webSocket: 1 << 16
        }
    }

    var description: String {
        switch self {
        case .udp(let address): "udp \(address)"
        case .tcp(let connection): "tcp \(connection.remoteAddress)"
        case .webSocket(let session): "websocket \(session.connection.remoteAddress)"
        }
    }
}
