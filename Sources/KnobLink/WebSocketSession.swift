import HTTPCore
import OSCTransport

/// A WebSocket on the server's TCP port (PROTOCOL.md section 7): the frames of one connection
/// after its upgrade, and what its client LISTENs to. Owned by the event loop, like its peer.
final class WebSocketSession: @unchecked Sendable {
    let connection: OSCTCPConnection
    var decoder: WebSocketFrameDecoder
    let encoder = WebSocketFrameEncoder()
    /// Where LISTENed values go instead of the WebSocket after START_OSC_STREAMING: the client's
    /// IP at the port it named.
    var streamingDestination: PeerDestination?
    /// Whether a Close frame went out (nothing else may follow it, RFC 6455 section 5.5.1).
    var closing = false

    init(connection: OSCTCPConnection, maximumMessageLength: Int) {
        self.connection = connection
        decoder = WebSocketFrameDecoder(maximumMessageLength: maximumMessageLength)
    }

    /// Sends an OSC packet the server built: each message a binary frame of its own, since some
    /// clients cannot read bundles (PROTOCOL.md section 7). Returns the number of frames sent.
    @discardableResult
    func send(packet bytes: UnsafeRawBufferPointer) -> Int {
        guard !closing else { return 0 }
        var frames: [UInt8] = []
        let count = Self.forEachMessage(in: bytes) { message in
            frames.append(contentsOf: encoder.encode(WebSocketFrame(opcode: .binary, payload: Array(message))))
        }
        if !frames.isEmpty { connection.write(frames) }
        return count
    }

    /// Sends a text message (an OSCQuery notification such as PATH_ADDED).
    func send(text: String) {
        guard !closing else { return }
        connection.write(encoder.encode(.text(text)))
    }

    func send(_ message: WebSocketMessage) {
        guard !closing else { return }
        connection.write(encoder.encode(message))
    }

    /// Sends a Close frame with `code` and closes the connection once it is written.
    func close(_ code: WebSocketCloseCode, reason: String) {
        guard !closing else { return }
        closing = true
        connection.write(encoder.encode(.close(code: code, reason: reason)))
        connection.close()
    }

    /// Calls `body` with each message of an OSC packet, in order, taking bundles apart
    /// (recursively: the server's own bundles are flat, but nothing depends on it). A malformed
    /// element ends the walk. Returns how many messages there were.
    static func forEachMessage(in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) -> Int {
        guard isBundle(bytes) else {
            if !bytes.isEmpty { body(bytes) }
            return bytes.isEmpty ? 0 : 1
        }
        var count = 0
        var offset = 16
        while offset + 4 <= bytes.count {
            let size =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            offset += 4
            guard size > 0, size <= bytes.count - offset else { break }
            count += forEachMessage(in: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size]), body)
            offset += size
        }
        return count
    }

    private static let bundleTag: [UInt8] = Array("#bundle".utf8) + [0]

    private static func isBundle(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 16 && bytes.prefix(8).elementsEqual(bundleTag)
    }
}
