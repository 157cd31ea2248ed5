/// One WebSocket frame as the server writes it: the FIN bit, the opcode and the payload.
///
/// Masking is a property of the wire, not of the frame: the decoder removes a client's mask, and
/// ``WebSocketFrameEncoder`` writes server frames unmasked (RFC 6455 section 5.1). The reserved
/// bits are always 0 because no extension is negotiated.
public struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the final fragment of its message (always true for a control frame).
    public var fin: Bool
    /// What the payload is.
    public var opcode: WebSocketOpcode
    /// The application data, unmasked.
    public var payload: [UInt8]

    /// Creates a frame.
    /// - Parameters:
    ///   - fin: whether this is the final fragment; true by default.
    ///   - opcode: what the payload is.
    ///   - payload: the application data.
    public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }
}
