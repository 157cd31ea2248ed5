/// Why bytes are not an HTTP/1.1 request the server takes, and where.
///
/// Every offset counts bytes from the first byte of the request line (empty lines before it,
/// which RFC 9112 section 2.2 lets a server skip, are not counted). Each error has the status the
/// server answers it with (``status``); after any of them the connection's framing is lost, so
/// the server answers and closes.
public enum HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request line and headers are longer than `limit` bytes with no end in sight (431).
    case headersTooLarge(limit: Int)
    /// The request announces a body, with the field `field` (`Content-Length` above 0, or any
    /// `Transfer-Encoding`) at `offset`: OSCQuery requests have none (PROTOCOL.md section 8, 413).
    case bodyNotAllowed(field: String, offset: Int)
    /// The version at `offset` is well-formed but neither HTTP/1.0 nor HTTP/1.1 (505).
    case unsupportedVersion(major: Int, minor: Int, offset: Int)
    /// The bytes break RFC 9112's syntax or one of its MUST-reject rules at `offset` (400).
    case malformed(Reason, offset: Int)

    /// What is wrong with a malformed request.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A NUL byte (RFC 9110 section 5.5), in a line or percent-encoded in the path.
        case nulByte
        /// A CR not followed by LF (RFC 9112 section 2.2).
        case bareCR
        /// The request line is not `method SP target SP version` with single spaces.
        case requestLineSyntax
        /// The method is empty or holds a byte that is not a token character.
        case invalidMethod
        /// The target is not origin-form (`/path?query`) or absolute-form (`http://host/path`), or
        /// holds a byte outside visible ASCII, or a `#`.
        case invalidTarget
        /// A `%` not followed by two hexadecimal digits.
        case invalidPercentEncoding
        /// The percent-decoded path is not UTF-8.
        case pathNotUTF8
        /// A `..` segment would go above `/`.
        case pathEscapesRoot
        /// The version is not `HTTP/` digit `.` digit.
        case invalidVersion
        /// A header line starts with a space or a tab: obsolete line folding (RFC 9112 section 5.2).
        case obsoleteLineFolding
        /// A header line has no `:`.
        case missingColon
        /// A space or a tab in a header name or before its colon (RFC 9112 section 5.1).
        case whitespaceInHeaderName
        /// A header name is empty or holds a byte that is not a token character.
        case invalidHeaderName
        /// A header value holds a control character other than a tab.
        case controlCharacter
        /// A second `Content-Length` field.
        case duplicateContentLength
        /// A `Content-Length` value that is not a decimal number.
        case invalidContentLength
        /// An HTTP/1.1 request without `Host` (RFC 9112 section 3.2).
        case missingHost
        /// A second `Host` field (RFC 9112 section 3.2).
        case duplicateHost

        /// What is wrong, in words (`obsolete line folding`).
        public var description: String {
            switch self {
            case .nulByte: "NUL byte"
            case .bareCR: "CR without LF"
            case .requestLineSyntax: "request line is not method, target and version separated by single spaces"
            case .invalidMethod: "invalid method"
            case .invalidTarget: "invalid request target"
            case .invalidPercentEncoding: "invalid percent-encoding"
            case .pathNotUTF8: "path is not UTF-8"
            case .pathEscapesRoot: "path goes above /"
            case .invalidVersion: "invalid HTTP version"
            case .obsoleteLineFolding: "obsolete line folding"
            case .missingColon: "header line without colon"
            case .whitespaceInHeaderName: "whitespace in header name"
            case .invalidHeaderName: "invalid header name"
            case .controlCharacter: "control character in header value"
            case .duplicateContentLength: "duplicate Content-Length"
            case .invalidContentLength: "invalid Content-Length"
            case .missingHost: "missing Host"
            case .duplicateHost: "duplicate Host"
            }
        }
    }

    /// The status the server answers this error with.
    public var status: HTTPStatus {
        switch self {
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .bodyNotAllowed: .contentTooLarge
        case .unsupportedVersion: .httpVersionNotSupported
        case .malformed: .badRequest
        }
    }

    /// What is wrong and where, for the error body (`obsolete line folding at byte 17`).
    public var description: String {
        switch self {
        case .headersTooLarge(let limit): "request line and headers longer than \(limit) bytes"
        case .bodyNotAllowed(let field, let offset): "request body not allowed (\(field) at byte \(offset))"
        case .unsupportedVersion(let major, let minor, let offset):
            "HTTP/\(major).\(minor) not supported (at byte \(offset))"
        case .malformed(let reason, let offset): "\(reason) at byte \(offset)"
        }
    }
}
