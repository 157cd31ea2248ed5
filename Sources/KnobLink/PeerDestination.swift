import OSCTransport

/// Where a peer's replies and feedback go.
enum PeerDestination {
    case udp(OSCSocketAddress)
    case tcp(OSCTCPConnection)

    var id: PeerID {
        switch self {
        case .udp(let address): .udp(address)
        case .tcp(let connection): .tcp(ObjectIdentifier(connection))
        }
    }

    /// The largest packet sent at once (rule 9.14): 8192 bytes on loopback, 1472 elsewhere, and
    /// TCP has no datagrams (64 KiB keeps the write queue's pieces reasonable).
    var datagramLimit: Int {
        switch self {
        case .udp(let address): address.isLoopback ? 8192 : 1472
        case .tcp: 1 << 16
        }
    }

    var description: String {
        switch self {
        case .udp(let address): "udp \(address)"
        case .tcp(let connection): "tcp \(connection.remoteAddress)"
        }
    }
}
