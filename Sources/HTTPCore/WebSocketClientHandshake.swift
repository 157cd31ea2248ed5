/// The client's half of the WebSocket opening handshake (RFC 6455 sections 4.1 and 4.2.2): the
/// upgrade request, and the checks a client makes of the server's answer.
///
/// The client asks for no subprotocol and no extension, so a server that names either in its
/// 101 has answered a request that was not made: the handshake fails (section 4.1, items 5
/// and 6 of the client's checks).
public struct WebSocketClientHandshake: Sendable, Hashable {
    /// The `Sec-WebSocket-Key`: the Base64 of a 16-byte nonce.
    public let key: String

    /// Creates a handshake with a nonce of 16 bytes, random unless given (tests give one).
    /// - Precondition: `nonce`, when given, has 16 bytes.
    public init(nonce: [UInt8]? = nil) {
        var bytes = nonce ?? []
        if nonce == nil {
            var generator = SystemRandomNumberGenerator()
            bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        precondition(bytes.count == 16, "a WebSocket key is 16 bytes")
        key = Base64.encode(bytes)
    }

    /// The `GET` request that asks the server at `host` to upgrade `target` (`/`).
    public func request(target: String, host: String) -> [UInt8] {
        let lines = [
            "GET \(target) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13", "", "",
        ]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    /// Checks the server's answer; the connection speaks WebSocket after it when it returns.
    /// - Throws: ``WebSocketHandshakeError`` for anything but a 101 with `Upgrade: websocket`,
    ///   `Connection: Upgrade`, the right `Sec-WebSocket-Accept`, and no extension or subprotocol.
    public func check(_ response: HTTPReceivedResponse) throws(WebSocketHandshakeError) {
        guard response.status == 101 else { throw .notSwitching(status: response.status, reason: response.reason) }
        guard response.headers.contains(token: "websocket", in: "Upgrade") else { throw .missingUpgrade }
        guard response.headers.contains(token: "upgrade", in: "Connection") else { throw .missingConnectionUpgrade }
        let expected = WebSocketHandshake.acceptValue(forKey: key)
        let accept = response.headers["Sec-WebSocket-Accept"]
        guard let accept, accept == expected else { throw .wrongAccept(accept) }
        if let extensions = response.headers["Sec-WebSocket-Extensions"] { throw .unrequestedExtension(extensions) }
        if let subprotocol = response.headers["Sec-WebSocket-Protocol"] { throw .unrequestedProtocol(subprotocol) }
    }
}

/// Why a server's answer does not open a WebSocket connection.
public enum WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with another status than 101.
    case notSwitching(status: Int, reason: String)
    /// The 101 has no `Upgrade: websocket`.
    case missingUpgrade
    /// The 101 has no `Connection: Upgrade`.
    case missingConnectionUpgrade
    /// `Sec-WebSocket-Accept` is missing (`nil`) or is not the hash of the key sent.
    case wrongAccept(String?)
    /// The server names an extension (`permessage-deflate`) that the client did not offer.
    case unrequestedExtension(String)
    /// The server names a subprotocol that the client did not offer.
    case unrequestedProtocol(String)

    /// What went wrong (`the server answered 404 Not Found, not 101`).
    public var description: String {
        switch self {
        case .notSwitching(let status, let reason): "the server answered \(status) \(reason), not 101"
        case .missingUpgrade: "the server's 101 has no 'Upgrade: websocket'"
        case .missingConnectionUpgrade: "the server's 101 has no 'Connection: Upgrade'"
        case .wrongAccept(let accept?): "Sec-WebSocket-Accept '\(accept)' is not the hash of the key sent"
        case .wrongAccept(nil): "the server's 101 has no Sec-WebSocket-Accept"
        case .unrequestedExtension(let value): "the server chose the extension '\(value)', which was not offered"
        case .unrequestedProtocol(let value): "the server chose the subprotocol '\(value)', which was not offered"
        }
    }
}
