/// A frame received on a TCP connection, copied out of the read buffer.
public struct OSCTCPFrame: Sendable {
    /// The frame's bytes: one OSC packet.
    public var bytes: [UInt8]
    /// The connection it came on; reply with ``OSCTCPConnection/send(_:)``.
    public var connection: OSCTCPConnection

    /// Creates a frame.
    /// - Parameters:
    ///   - bytes: the bytes.
    ///   - connection: the connection.
    public init(bytes: [UInt8], connection: OSCTCPConnection) {
        self.bytes = bytes
        self.connection = connection
    }
}
