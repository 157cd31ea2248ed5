/// A received datagram, copied out of the receive buffer, with its sender.
public struct OSCDatagram: Sendable, Hashable {
    /// The datagram's bytes.
    public var bytes: [UInt8]
    /// Where it came from.
    public var sender: OSCSocketAddress

    /// Creates a datagram.
    /// - Parameters:
    ///   - bytes: the bytes.
    ///   - sender: the sender.
    public init(bytes: [UInt8], sender: OSCSocketAddress) {
        self.bytes = bytes
        self.sender = sender
    }
}
