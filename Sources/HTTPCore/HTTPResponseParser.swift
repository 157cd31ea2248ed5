/// A response as a client reads it: the status, the headers and the body.
public struct HTTPReceivedResponse: Sendable, Hashable {
    /// The status code (`200`, `101`, `404`…).
    public var status: Int
    /// The reason phrase, as sent.
    public var reason: String
    /// The minor version of the status line: `HTTP/1.0` is 0, `HTTP/1.1` is 1.
    public var minorVersion: Int
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body: empty for `HEAD`, 1xx, 204 and 304 responses.
    public var body: [UInt8]

    /// Creates a response.
    public init(
        status: Int, reason: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.status = status
        self.reason = reason
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// Whether the server keeps the connection open for another request: HTTP/1.1 without
    /// `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`, and a delimited body.
    public var keepsAlive: Bool {
        if headers.contains(token: "close", in: "Connection") { return false }
        guard headers["Content-Length"] != nil || !Self.hasBody(status: status) else { return false }
        return minorVersion >= 1 || headers.contains(token: "keep-alive", in: "Connection")
    }

    /// RFC 9112 section 6.3: 1xx, 204 and 304 responses never have a body.
    static func hasBody(status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }
}

/// Reads HTTP/1.x responses (RFC 9112) as bytes arrive, for a client: one response a call.
///
/// The head is read as ``HTTPRequestParser`` reads a request's, with the same header rules and
/// an 8 KiB limit (PROTOCOL.md section 8). The body is delimited as section 6.3 says:
/// none for `HEAD`, 1xx, 204 and 304; `Content-Length` bytes; otherwise everything until the
/// server closes the connection (``finish(buffer:)``), as HTTP/1.0 servers do. A transfer
/// coding (`chunked`) is refused rather than read. The body is bounded (8 MiB by default) and
/// checked against the bound from `Content-Length` before any of it is kept.
///
/// A `101 Switching Protocols` response ends at its head: the bytes after it, the other
/// protocol's first, stay in the buffer. Use one parser per connection, and ``reset(forMethod:)``
/// before each request; after an error, close the connection.
public struct HTTPResponseParser: Sendable {
    /// The default for ``maximumBodyLength``: 8 MiB, room for the namespace of the largest tree
    /// (PROTOCOL.md section 8).
    public static let defaultMaximumBodyLength = 8 << 20

    /// The longest head accepted, line endings included.
    public let maximumHeadLength: Int
    /// The longest body accepted.
    public let maximumBodyLength: Int

    private var head: HTTPReceivedResponse?
    private var expected: Int?
    private var isHeadRequest = false
    private var headBytes = 0
    private var scanned = 0

    /// Creates a parser.
    public init(
        maximumHeadLength: Int = HTTPRequestParser.defaultMaximumHeadLength,
        maximumBodyLength: Int = HTTPResponseParser.defaultMaximumBodyLength
    ) {
        precondition(maximumHeadLength > 0 && maximumBodyLength >= 0)
        self.maximumHeadLength = maximumHeadLength
        self.maximumBodyLength = maximumBodyLength
    }

    /// Prepares for the response to the next request; `HEAD` responses have no body.
    public mutating func reset(forMethod method: String = "GET") {
        head = nil
        expected = nil
        headBytes = 0
        scanned = 0
        isHeadRequest = method == "HEAD"
    }

    /// Consumes the next complete response from the front of `buffer`.
    /// - Returns: the response, or `nil` while it is not complete: its head is still coming, or
    ///   its body, whose end (without `Content-Length`) only the connection's end shows.
    /// - Throws: ``HTTPResponseError`` as soon as a limit is passed or the head is complete and wrong.
    public mutating func decode(buffer: inout [UInt8]) throws(HTTPResponseError) -> HTTPReceivedResponse? {
        if head == nil {
            guard let end = try headEnd(in: buffer) else { return nil }
            let bytes = Array(buffer[..<end])
            buffer.removeFirst(end)
            headBytes = end
            try begin(try Self.parseHead(bytes))
        }
        guard var response = head else { return nil }
        if let expected {
            guard buffer.count >= expected else { return nil }
            response.body = Array(buffer[..<expected])
            buffer.removeFirst(expected)
            reset(forMethod: isHeadRequest ? "HEAD" : "GET")
            return response
        }
        if !HTTPReceivedResponse.hasBody(status: response.status) || isHeadRequest {
            reset(forMethod: isHeadRequest ? "HEAD" : "GET")
            return response
        }
        // Delimited by the connection's end.
        guard buffer.count <= maximumBodyLength else {
            // How far past the limit depends on how the bytes came: the error does not say.
            throw .bodyTooLarge(length: nil, limit: maximumBodyLength)
        }
        return nil
    }

    /// The connection has ended: the response whose body ran to its end, or an error if one was
    /// cut off.
    /// - Returns: the response, or `nil` if no byte of one had come.
    public mutating func finish(buffer: inout [UInt8]) throws(HTTPResponseError) -> HTTPReceivedResponse? {
        if let response = try decode(buffer: &buffer) { return response }
        guard var response = head else {
            guard buffer.isEmpty else { throw .truncated(received: buffer.count, expected: nil) }
            return nil
        }
        if let expected { throw .truncated(received: buffer.count, expected: expected) }
        response.body = buffer
        buffer.removeAll()
        reset(forMethod: isHeadRequest ? "HEAD" : "GET")
        return response
    }

    private mutating func begin(_ response: HTTPReceivedResponse) throws(HTTPResponseError) {
        if let coding = response.headers["Transfer-Encoding"] { throw .transferCodingRefused(coding) }
        let lengths = response.headers.values(for: "Content-Length")
        if let first = lengths.first, HTTPReceivedResponse.hasBody(status: response.status), !isHeadRequest {
            let digits = first.utf8
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                lengths.allSatisfy({ $0 == first }), let length = Int(first)
            else { throw .invalidContentLength(offset: 0) }
            guard length <= maximumBodyLength else { throw .bodyTooLarge(length: length, limit: maximumBodyLength) }
            expected = length
        }
        head = response
    }

    /// The offset just past the empty line that ends the head, or `nil` while it has not come.
    private mutating func headEnd(in buffer: [UInt8]) throws(HTTPResponseError) -> Int? {
        var index = scanned
        while index < buffer.count {
            guard index < maximumHeadLength else { throw .headTooLarge(limit: maximumHeadLength) }
            if buffer[index] == HTTPRequestParser.lf {
                if index >= 1 && buffer[index - 1] == HTTPRequestParser.lf { return index + 1 }
                if index >= 2 && buffer[index - 1] == HTTPRequestParser.cr && buffer[index - 2] == HTTPRequestParser.lf
                {
                    return index + 1
                }
            }
            index += 1
        }
        scanned = index
        return nil
    }

    /// Reads a complete head: the status line, the fields and the empty line.
    static func parseHead(_ head: [UInt8]) throws(HTTPResponseError) -> HTTPReceivedResponse {
        var lines: [Range<Int>] = []
        var start = 0
        for (offset, byte) in head.enumerated() {
            if byte == 0 { throw .malformedHeader(.nulByte, offset: offset) }
            if byte == HTTPRequestParser.cr && (offset + 1 >= head.count || head[offset + 1] != HTTPRequestParser.lf) {
                throw .malformedHeader(.bareCR, offset: offset)
            }
            guard byte == HTTPRequestParser.lf else { continue }
            let end = offset > start && head[offset - 1] == HTTPRequestParser.cr ? offset - 1 : offset
            lines.append(start..<end)
            start = offset + 1
        }
        guard let statusLine = lines.first else { throw .statusLineSyntax(offset: 0) }
        var response = try parseStatusLine(head[statusLine], at: statusLine.lowerBound)
        for line in lines.dropFirst().dropLast() {
            do throws(HTTPParseError) {
                let field = try HTTPRequestParser.parseField(head, line)
                response.headers.append(name: field.name, value: field.value)
            } catch {
                guard case .malformed(let reason, let offset) = error else {
                    throw .statusLineSyntax(offset: line.lowerBound)
                }
                throw .malformedHeader(reason, offset: offset)
            }
        }
        return response
    }

    /// `HTTP/1.1 200 OK`: the version, one space, three digits, and a reason (maybe empty).
    private static func parseStatusLine(_ line: ArraySlice<UInt8>, at offset: Int) throws(HTTPResponseError)
        -> HTTPReceivedResponse
    {
        let bytes = Array(line)
        let prefix = Array("HTTP/1.".utf8)
        guard bytes.count >= 12, Array(bytes[0..<7]) == prefix, (0x30...0x39).contains(bytes[7]), bytes[8] == 0x20,
            bytes[9...11].allSatisfy({ (0x30...0x39).contains($0) }), bytes.count == 12 || bytes[12] == 0x20
        else { throw .statusLineSyntax(offset: offset) }
        let status = bytes[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard status >= 100 else { throw .statusLineSyntax(offset: offset + 9) }
        let reason = bytes.count > 13 ? HTTPHeaders.latin1String(bytes[13...]) : ""
        return HTTPReceivedResponse(status: status, reason: reason, minorVersion: Int(bytes[7] - 0x30))
    }
}
