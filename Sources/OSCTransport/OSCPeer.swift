/// Where a packet came from: a UDP sender's address, or a TCP connection.
public enum OSCPeer: Sendable, Hashable, CustomStringConvertible {
    /// A UDP sender (its source address and port).
    case udp(OSCSocketAddress)
    /// A TCP connection; replies go back on it.
    case tcp(OSCTCPConnection)

    /// The peer's socket address.
    public var address: OSCSocketAddress {
        switch self {
        case .udp(let address): address
        case .tcp(let connection): connection.remoteAddress
        }
    }

    /// `udp 127.0.0.1:50000` or `tcp 127.0.0.1:50000`.
    public var description: String {
        switch self {
        case .udp(let address): "udp \(address)"
        case .tcp(let connection): "tcp \(connection.remoteAddress)"
        }
    }
}
