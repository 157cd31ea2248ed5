/// The HTTP status codes the server answers with (RFC 9110 section 15), and their reason phrases.
///
/// Only the codes that PROTOCOL.md sections 7 and 8 ask for: OSCQuery answers (204 for an
/// attribute a node does not have, and for a CORS preflight), the WebSocket upgrade, and the
/// refusals of the HTTP limits.
public enum HTTPStatus: Int, Sendable, Hashable, CaseIterable {
    case switchingProtocols = 101
    case ok = 200
    case noContent = 204
    case badRequest = 400
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case contentTooLarge = 413
    case upgradeRequired = 426
    case requestHeaderFieldsTooLarge = 431
    case internalServerError = 500
    case httpVersionNotSupported = 505

    /// The reason phrase of the status line (`Not Found`).
    public var reasonPhrase: String {
        switch self {
        case .switchingProtocols: "Switching Protocols"
        case .ok: "OK"
        case .noContent: "No Content"
        case .badRequest: "Bad Request"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .contentTooLarge: "Content Too Large"
        case .upgradeRequired: "Upgrade Required"
        case .requestHeaderFieldsTooLarge: "Request Header Fields Too Large"
        case .internalServerError: "Internal Server Error"
        case .httpVersionNotSupported: "HTTP Version Not Supported"
        }
    }

    /// `HTTP/1.1 404 Not Found`, without the line's CRLF.
    public var statusLine: String { "HTTP/1.1 \(rawValue) \(reasonPhrase)" }
}
