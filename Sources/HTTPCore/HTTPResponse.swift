/// One HTTP/1.1 response as the server writes it: status, headers and body.
///
/// ``encoded()`` writes the fields every OSCQuery answer needs (PROTOCOL.md section 7):
/// `Content-Type`, a `Content-Length` counted from the body, `Access-Control-Allow-Origin: *`
/// (browsers on other origins read the namespace), then ``headers``. A `Content-Length` or
/// `Transfer-Encoding` among ``headers`` is dropped, so the length is always the body's. A 1xx
/// response (the WebSocket upgrade's 101) has no content (RFC 9110 section 15.2): it gets the
/// status line and ``headers`` alone. A 204 has no content either: no `Content-Length` and no
/// body (RFC 9110 section 8.6), the other fields as usual.
public struct HTTPResponse: Sendable, Hashable {
    /// The status of the status line.
    public var status: HTTPStatus
    /// The media type of the body (`application/json`), or `nil` for no `Content-Type`.
    public var contentType: String?
    /// Fields written after the standard ones (`Upgrade`, `Sec-WebSocket-Accept`, `Allow`).
    public var headers: HTTPHeaders
    /// The content; its length goes in `Content-Length` even when ``omitsBody`` is set.
    public var body: [UInt8]
    /// Whether the body is left out, as for a `HEAD` request (RFC 9110 section 9.3.2): the same
    /// fields as the `GET`, `Content-Length` included, and no content.
    public var omitsBody = false
    /// Whether `Connection: close` is sent: the server closes after this response.
    public var closesConnection = false
    /// Whether `Connection: keep-alive` is sent, which an HTTP/1.0 client needs to keep the
    /// connection (RFC 9112 section 9.3); ignored when ``closesConnection`` is set.
    public var announcesKeepAlive = false

    /// Creates a response.
    public init(
        status: HTTPStatus, contentType: String? = "application/json", body: [UInt8] = [],
        headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// The error answer: a JSON object `{"ERROR":"Not Found","STATUS":404,"DETAIL":"…"}`.
    ///
    /// The upper-case keys follow OSCQuery's own (`FULL_PATH`, `HOST_INFO`); `ERROR` is the
    /// reason phrase, `STATUS` the code and `DETAIL` what was wrong, for a person reading it.
    /// A status of 400 or above closes the connection when it comes from ``init(error:)``; here the
    /// caller decides (a 404 keeps the connection).
    public static func error(_ status: HTTPStatus, detail: String) -> HTTPResponse {
        let body =
            "{\"ERROR\":\(jsonString(status.reasonPhrase)),\"STATUS\":\(status.rawValue),\"DETAIL\":\(jsonString(detail))}"
        return HTTPResponse(status: status, body: Array(body.utf8))
    }

    /// The answer to a request that could not be parsed: its status, a JSON error body saying
    /// what and where, and `Connection: close`, since the rest of the connection cannot be framed.
    public init(error: HTTPParseError) {
        self = Self.error(error.status, detail: error.description)
        closesConnection = true
    }

    /// This response as the answer to `request`: no body for `HEAD`, `Connection: close` when
    /// the request did not keep the connection, `Connection: keep-alive` for a keep-alive HTTP/1.0 one.
    public func answering(_ request: HTTPRequest) -> HTTPResponse {
        var response = self
        response.omitsBody = omitsBody || request.method == "HEAD"
        response.closesConnection = closesConnection || !request.keepAlive
        response.announcesKeepAlive = request.version == .http1_0 && !response.closesConnection
        return response
    }

    /// The status line, the header fields and the body, as bytes.
    public func encoded() -> [UInt8] {
        includesBody ? encodedHead() + body : encodedHead()
    }

    /// Whether the body goes on the wire after the head: not for `HEAD`, a 1xx or a 204.
    public var includesBody: Bool {
        status.rawValue >= 200 && status != .noContent && !omitsBody
    }

    /// The status line and the header fields with the blank line that ends them: what goes
    /// before ``body`` (when ``includesBody``). Written apart from the body, a large body is
    /// never copied into a second buffer.
    public func encodedHead() -> [UInt8] {
        var bytes = Array(status.statusLine.utf8)
        bytes.append(contentsOf: [0x0D, 0x0A])
        func field(_ name: String, _ value: String) {
            bytes.append(contentsOf: HTTPHeaders.latin1Bytes(name))
            bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            bytes.append(contentsOf: HTTPHeaders.latin1Bytes(value))
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
        let informational = status.rawValue < 200
        if !informational {
            if let contentType { field("Content-Type", contentType) }
            // RFC 9110 section 8.6: no Content-Length in a 204, which has no content.
            if status != .noContent { field("Content-Length", String(body.count)) }
            field("Access-Control-Allow-Origin", "*")
            if closesConnection {
                field("Connection", "close")
            } else if announcesKeepAlive {
                field("Connection", "keep-alive")
            }
        }
        for header in headers.fields
        where !HTTPHeaders.namesMatch(header.name, "Content-Length")
            && !HTTPHeaders.namesMatch(header.name, "Transfer-Encoding")
        {
            field(header.name, header.value)
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
        return bytes
    }

    /// `text` as a JSON string literal (RFC 8259 section 7), quotes included.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
