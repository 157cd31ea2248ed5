/// Writes the server's WebSocket frames (RFC 6455 section 5.2): unmasked, as section 5.1 requires
/// of a server, with the shortest length form.
public struct WebSocketFrameEncoder: Sendable {
    /// Creates an encoder; it has no state, so one serves every connection.
    public init() {}

    /// The bytes of `frame`: its header and its payload as given.
    ///
    /// The frame is written as it is; a control frame of more than 125 bytes or an unfinished one
    /// is the caller's mistake, which ``encode(_:)-(WebSocketMessage)`` never makes.
    /// - Complexity: O(n) in the payload's length.
    public func encode(_ frame: WebSocketFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frame.payload.count + 10)
        bytes.append((frame.fin ? 0x80 : 0) | frame.opcode.rawValue)
        let length = frame.payload.count
        if length < 126 {
            bytes.append(UInt8(length))
        } else if length <= 0xFFFF {
            bytes.append(126)
            bytes.append(UInt8(truncatingIfNeeded: length >> 8))
            bytes.append(UInt8(truncatingIfNeeded: length))
        } else {
            bytes.append(127)
            let wide = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: wide >> shift)) }
        }
        bytes.append(contentsOf: frame.payload)
        return bytes
    }

    /// The client form (section 5.3) of a frame this encoder wrote: the MASK bit set, `key` after
    /// the length, the payload XORed with it. What a client sends; the tests and the decoder's
    /// fuzz target make client frames with it.
    /// - Precondition: `encoded` is one whole unmasked frame and `key` has 4 bytes.
    public static func masked(_ encoded: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(key.count == 4 && encoded.count >= 2, "a whole frame and a 4-byte key")
        let shortLength = encoded[1] & 0x7F
        let headerLength = shortLength == 127 ? 10 : shortLength == 126 ? 4 : 2
        var bytes = Array(encoded[..<headerLength])
        bytes.reserveCapacity(encoded.count + 4)
        bytes[1] |= 0x80
        bytes += key
        for (index, byte) in encoded[headerLength...].enumerated() { bytes.append(byte ^ key[index % 4]) }
        return bytes
    }

    /// The bytes of `message` as one unfragmented frame.
    ///
    /// Control frames are kept within section 5.5's 125 bytes: a longer ping or pong payload is cut
    /// to 125 bytes, and a close reason to the whole characters that fit in 123 bytes after the
    /// code. A close without a code has an empty payload (its reason is not sent).
    /// - Complexity: O(n) in the payload's length.
    public func encode(_ message: WebSocketMessage) -> [UInt8] {
        switch message {
        case .text(let text): encode(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
        case .binary(let payload): encode(WebSocketFrame(opcode: .binary, payload: payload))
        case .ping(let payload): encode(WebSocketFrame(opcode: .ping, payload: Array(payload.prefix(125))))
        case .pong(let payload): encode(WebSocketFrame(opcode: .pong, payload: Array(payload.prefix(125))))
        case .close(let code, let reason): encode(WebSocketFrame(opcode: .close, payload: closePayload(code, reason)))
        }
    }

    private func closePayload(_ code: WebSocketCloseCode?, _ reason: String) -> [UInt8] {
        guard let code else { return [] }
        var payload = [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        for scalar in reason.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard payload.count + encoded.count <= 125 else { break }
            payload.append(contentsOf: encoded)
        }
        return payload
    }
}
