import HTTPCore

/// What a client would put on the wire, and what the decoder makes of it: the tests' helpers.
enum WebSocketWire {
    /// The masked form of a server frame (as ``WebSocketFrameEncoder`` writes it), as a client sends it.
    static func masked(_ frame: [UInt8], key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]) -> [UInt8] {
        WebSocketFrameEncoder.masked(frame, key: key)
    }

    /// A masked client frame with any header bits (the reserved ones too) and any payload.
    static func clientFrame(_ first: UInt8, _ payload: [UInt8], key: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        var unmasked = [first]
        if payload.count < 126 {
            unmasked.append(UInt8(payload.count))
        } else {
            unmasked += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return masked(unmasked + payload, key: key)
    }

    /// The messages and the error that feeding `bytes` in pieces of `size` gives a fresh decoder.
    static func decode(_ bytes: [UInt8], pieces size: Int = Int.max, limit: Int = 1 << 20)
        -> (messages: [WebSocketMessage], error: WebSocketError?)
    {
        var decoder = WebSocketFrameDecoder(maximumMessageLength: limit)
        var buffer: [UInt8] = []
        var messages: [WebSocketMessage] = []
        var start = 0
        repeat {
            let end = start + min(size, bytes.count - start)
            buffer += bytes[start..<end]
            start = end
            do {
                while let message = try decoder.decode(buffer: &buffer) { messages.append(message) }
            } catch {
                return (messages, error)
            }
        } while start < bytes.count
        return (messages, nil)
    }
}
