/// The server's half of the WebSocket opening handshake (RFC 6455 section 4.2.2): the
/// `Sec-WebSocket-Accept` value and the bytes of the 101 response.
///
/// It takes the header values as plain strings, so that it works with whatever HTTP parser reads
/// the request; checking that the request is a `GET` with `Upgrade: websocket`,
/// `Connection: Upgrade` and `Sec-WebSocket-Version: 13` is the parser's caller's job.
public enum WebSocketHandshake {
    /// The GUID that RFC 6455 section 1.3 appends to the key before hashing.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`: the Base64 of the
    /// SHA-1 of the key followed by ``guid``.
    ///
    /// - Parameter key: the `Sec-WebSocket-Key` header's value, without surrounding whitespace.
    /// - Returns: the accept value, or `nil` if the key is not (strict) Base64 of exactly 16 bytes,
    ///   which section 4.2.1 requires; the server then answers 400.
    public static func acceptValue(forKey key: String) -> String? {
        guard let nonce = Base64.decode(key), nonce.count == 16 else { return nil }
        return Base64.encode(SHA1.digest(of: Array((key + guid).utf8)))
    }

    /// The bytes of the `101 Switching Protocols` response that completes the handshake.
    ///
    /// No `Sec-WebSocket-Protocol` and no `Sec-WebSocket-Extensions`: the server speaks no
    /// subprotocol (PROTOCOL.md section 7 uses plain text and binary frames) and no extension, so
    /// the reserved bits stay 0.
    /// - Parameter key: the `Sec-WebSocket-Key` header's value.
    /// - Returns: the status line, `Upgrade`, `Connection` and `Sec-WebSocket-Accept`, and the
    ///   empty line; `nil` if the key is invalid (see ``acceptValue(forKey:)``).
    public static func response(forKey key: String) -> [UInt8]? {
        guard let accept = acceptValue(forKey: key) else { return nil }
        let lines = [
            HTTPStatus.switchingProtocols.statusLine, "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: \(accept)", "", "",
        ]
        return Array(lines.joined(separator: "\r\n").utf8)
    }
}
