import OSCTransport

/// A peer's identity (rule 9.1): a UDP reply address, or one TCP connection.
enum PeerID: Hashable {
    case udp(OSCSocketAddress)
    case tcp(ObjectIdentifier)
}
