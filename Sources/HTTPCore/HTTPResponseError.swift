/// Why bytes from a server are not an HTTP/1.x response a client takes, and where.
///
/// Offsets count bytes from the first byte of the status line. After any of these the
/// connection's framing is lost: the client closes it.
public enum HTTPResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status line and headers are longer than `limit` bytes with no end in sight.
    case headTooLarge(limit: Int)
    /// The body is announced as `length` bytes, more than `limit`; or (`length` `nil`) a body
    /// that runs to the connection's end has passed `limit`.
    case bodyTooLarge(length: Int?, limit: Int)
    /// The response uses a transfer coding (`Transfer-Encoding: chunked`…), which this client
    /// does not read: OSCQuery answers are small, and a `Content-Length` or the end of the
    /// connection delimits them.
    case transferCodingRefused(String)
    /// The status line is not `HTTP/1.x`, a three-digit code and a reason.
    case statusLineSyntax(offset: Int)
    /// A header line breaks RFC 9112's syntax at `offset`.
    case malformedHeader(HTTPParseError.Reason, offset: Int)
    /// `Content-Length` is not one decimal number, or is given twice with different values.
    case invalidContentLength(offset: Int)
    /// The connection closed after `received` bytes of a head or of a body of `expected` bytes
    /// (`expected` is `nil` while the head was still coming).
    case truncated(received: Int, expected: Int?)

    /// What is wrong and where (`response body of 9000000 bytes, more than 8388608`).
    public var description: String {
        switch self {
        case .headTooLarge(let limit): "status line and headers longer than \(limit) bytes"
        case .bodyTooLarge(let length?, let limit): "response body of \(length) bytes, more than \(limit)"
        case .bodyTooLarge(nil, let limit): "response body longer than \(limit) bytes"
        case .transferCodingRefused(let coding): "transfer coding '\(coding)' not supported"
        case .statusLineSyntax(let offset): "status line is not 'HTTP/1.x code reason' (at byte \(offset))"
        case .malformedHeader(let reason, let offset): "\(reason) at byte \(offset)"
        case .invalidContentLength(let offset): "invalid Content-Length at byte \(offset)"
        case .truncated(let received, let expected?):
            "connection closed after \(received) of \(expected) body bytes"
        case .truncated(let received, nil): "connection closed after \(received) bytes of the head"
        }
    }
}
