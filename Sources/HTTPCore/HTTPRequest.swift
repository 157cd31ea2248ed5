/// One HTTP/1.x request without a body, as the server reads it: what OSCQuery clients send.
///
/// ``path`` is percent-decoded and its dot segments resolved; ``query`` is the text after `?`
/// as sent, not decoded, because OSCQuery's attribute query (`?VALUE`, `?HOST_INFO`) is the whole
/// query string, with no `name=value` pairs.
public struct HTTPRequest: Sendable, Hashable {
    /// The protocol versions the server speaks.
    public enum Version: Sendable, Hashable {
        case http1_0
        case http1_1

        /// `HTTP/1.1`.
        public var text: String { self == .http1_0 ? "HTTP/1.0" : "HTTP/1.1" }
    }

    /// The method, case-sensitive (`GET`, `HEAD`).
    public var method: String
    /// The decoded path, starting with `/` (`/knob/gain`).
    public var path: String
    /// The text after the first `?`, not decoded (`VALUE`), or `nil` when the target has no `?`.
    public var query: String?
    /// The version of the request line.
    public var version: Version
    /// The header fields, in order.
    public var headers: HTTPHeaders

    /// Creates a request.
    public init(
        method: String, path: String, query: String? = nil, version: Version = .http1_1,
        headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
    }

    /// Whether the connection stays open after the response (RFC 9112 section 9.3).
    ///
    /// A `close` token in `Connection` ends it in any version; otherwise HTTP/1.1 keeps the
    /// connection and HTTP/1.0 keeps it only with a `keep-alive` token.
    public var keepAlive: Bool {
        if headers.contains(token: "close", in: "Connection") { return false }
        return version == .http1_1 || headers.contains(token: "keep-alive", in: "Connection")
    }

    /// Whether this is a WebSocket opening handshake (RFC 6455 section 4.2.1).
    ///
    /// A `GET` with `Upgrade: websocket` (any case), an `upgrade` token in `Connection`, a
    /// `Sec-WebSocket-Key` and `Sec-WebSocket-Version: 13`. Whether the key is valid base64 of
    /// 16 bytes is the handshake's business, not the parser's.
    public var isWebSocketUpgrade: Bool {
        method == "GET" && headers.contains(token: "websocket", in: "Upgrade")
            && headers.contains(token: "upgrade", in: "Connection") && headers["Sec-WebSocket-Key"] != nil
            && headers["Sec-WebSocket-Version"] == "13"
    }

    /// The request as bytes, in origin-form: what a client would send, and what
    /// ``HTTPRequestParser`` reads back as an equal request.
    ///
    /// The path is percent-encoded again: every byte but unreserved characters, sub-delimiters,
    /// `:`, `@` and `/` (RFC 3986 section 3.3) becomes `%XX`.
    public func encoded() -> [UInt8] {
        var bytes = Array(method.utf8)
        bytes.append(UInt8(ascii: " "))
        for byte in path.utf8 {
            if Self.isPathCharacter(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
        if let query {
            bytes.append(UInt8(ascii: "?"))
            bytes.append(contentsOf: query.utf8)
        }
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: version.text.utf8)
        bytes.append(contentsOf: [0x0D, 0x0A])
        for field in headers.fields {
            bytes.append(contentsOf: HTTPHeaders.latin1Bytes(field.name))
            bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            bytes.append(contentsOf: HTTPHeaders.latin1Bytes(field.value))
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
        return bytes
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }
}
