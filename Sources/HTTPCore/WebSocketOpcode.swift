/// The opcode of a WebSocket frame (RFC 6455 section 5.2): the four bits that say what its payload is.
///
/// Opcodes 0x3 to 0x7 and 0xB to 0xF are reserved; a frame that carries one has no case here, and
/// the decoder refuses it with ``WebSocketError/unknownOpcode(_:offset:)``.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    /// A later fragment of a text or binary message.
    case continuation = 0x0
    /// The first (or only) frame of a message of UTF-8 text.
    case text = 0x1
    /// The first (or only) frame of a binary message.
    case binary = 0x2
    /// The closing handshake (section 5.5.1).
    case close = 0x8
    /// A ping, to be answered with a pong of the same payload (section 5.5.2).
    case ping = 0x9
    /// A pong, the answer to a ping or an unsolicited heartbeat (section 5.5.3).
    case pong = 0xA

    /// Whether this is a control frame's opcode (its most significant bit is set): such frames
    /// carry at most 125 bytes, are never fragmented, and may come between a message's fragments.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
