/// What a WebSocket peer said: a whole data message (all its fragments joined) or a control frame.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message, checked to be UTF-8.
    case text(String)
    /// A binary message (in KnobLink, one OSC packet: PROTOCOL.md section 7).
    case binary([UInt8])
    /// A ping; the server answers with a pong of the same payload.
    case ping([UInt8])
    /// A pong.
    case pong([UInt8])
    /// A Close frame. `code` is `nil` when the frame had no payload (what RFC 6455 section 7.1.5
    /// calls 1005, a code that never goes on the wire); `reason` is then empty.
    case close(code: WebSocketCloseCode?, reason: String)
}
