/// Why a WebSocket byte stream cannot be read further, where, and with which code to close it.
///
/// Every offset counts bytes from the first byte the decoder was given (the first byte after the
/// handshake), so that the frame or the byte at fault can be found in a capture. ``closeCode`` is
/// what the server's Close frame says (RFC 6455 section 7.4.1).
public enum WebSocketError: Error, Sendable, Hashable {
    /// A client frame whose header starts at `offset` has its MASK bit clear (section 5.1).
    case unmaskedFrame(offset: Int)
    /// A server frame whose header starts at `offset` has its MASK bit set (section 5.1); only a
    /// client's decoder (``WebSocketRole/client``) reports it.
    case maskedFrame(offset: Int)
    /// The frame at `offset` sets reserved bits (`bits` holds RSV1–RSV3 in place, `0x70`
    /// masked); no extension that would give them a meaning is negotiated.
    case reservedBitsSet(bits: UInt8, offset: Int)
    /// The frame at `offset` has the reserved opcode `opcode` (0x3–0x7 or 0xB–0xF).
    case unknownOpcode(UInt8, offset: Int)
    /// The control frame at `offset` has its FIN bit clear; control frames are never fragmented.
    case fragmentedControlFrame(WebSocketOpcode, offset: Int)
    /// The control frame at `offset` declares `length` payload bytes, more than 125.
    case controlFrameTooLong(WebSocketOpcode, length: UInt64, offset: Int)
    /// The continuation frame at `offset` continues no message.
    case continuationWithoutStart(offset: Int)
    /// The text or binary frame at `offset` starts a message while a fragmented one is unfinished.
    case dataFrameInsideFragmentedMessage(offset: Int)
    /// The frame at `offset` has a 64-bit length with its most significant bit set (section 5.2).
    case lengthOutOfRange(offset: Int)
    /// The data frame at `offset` would make its message `length` bytes long (its fragments so
    /// far and this frame's declared payload), more than `limit`; refused before any of it is kept.
    case messageTooLarge(length: UInt64, limit: Int, offset: Int)
    /// Text (a text message or a close reason) is not UTF-8: the byte at `offset` cannot come
    /// where it does, or the sequence starting at `offset` is cut off by the end of the text.
    case invalidUTF8(offset: Int)
    /// The Close frame at `offset` has a payload of one byte, too short for a code.
    case closePayloadTooShort(offset: Int)
    /// The Close frame whose code is at `offset` carries `code`, which a peer may not send
    /// (``WebSocketCloseCode/isValidFromPeer``).
    case invalidCloseCode(UInt16, offset: Int)

    /// The code of the Close frame the server sends before it drops the connection: 1009 for a
    /// message too large, 1007 for text that is not UTF-8, 1002 for every other fault.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .messageTooLarge: .messageTooBig
        case .invalidUTF8: .invalidPayload
        case .unmaskedFrame, .maskedFrame, .reservedBitsSet, .unknownOpcode, .fragmentedControlFrame,
            .controlFrameTooLong,
            .continuationWithoutStart, .dataFrameInsideFragmentedMessage, .lengthOutOfRange, .closePayloadTooShort,
            .invalidCloseCode:
            .protocolError
        }
    }

    /// The byte offset that the error names.
    public var offset: Int {
        switch self {
        case .unmaskedFrame(let offset), .maskedFrame(let offset), .reservedBitsSet(_, let offset),
            .unknownOpcode(_, let offset),
            .fragmentedControlFrame(_, let offset), .controlFrameTooLong(_, _, let offset),
            .continuationWithoutStart(let offset), .dataFrameInsideFragmentedMessage(let offset),
            .lengthOutOfRange(let offset), .messageTooLarge(_, _, let offset), .invalidUTF8(let offset),
            .closePayloadTooShort(let offset), .invalidCloseCode(_, let offset):
            offset
        }
    }
}
