/// The status code of a WebSocket Close frame (RFC 6455 section 7.4).
///
/// A struct rather than an enum, because a peer may send codes that have no name here: the
/// registered range 3000–3999 and the private range 4000–4999 are open to applications.
/// ``isValidFromPeer`` says which codes a received Close frame may carry.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as it goes on the wire, big-endian in the first two bytes of the payload.
    public let rawValue: UInt16

    /// Wraps any code; whether a peer may send it is ``isValidFromPeer``.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (the server shuts down, the page is left).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol (an unmasked frame, a reserved bit, a bad fragment).
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1007: data inconsistent with the message's type, such as text that is not UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that violates the endpoint's policy, when no other code fits.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message too big to process (over `--max-frame`, PROTOCOL.md section 7).
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: the server met a condition that kept it from fulfilling the request.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether a peer may put this code in a Close frame.
    ///
    /// Section 7.4.1 forbids sending 1004 (reserved), 1005 and 1006 (which stand for "no code" and
    /// "no Close frame" locally) and 1015 (a TLS failure), and leaves the rest of 1000–2999 to the
    /// protocol; codes under 1000 are never used. Accepted: 1000–1003, 1007–1011, the codes IANA
    /// has registered since (1012 service restart, 1013 try again later, 1014 bad gateway), and
    /// 3000–4999. Anything else is a protocol error (1002).
    public var isValidFromPeer: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number, as it appears in logs and in RFC 6455.
    public var description: String { "\(rawValue)" }
}
