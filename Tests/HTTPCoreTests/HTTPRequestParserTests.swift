import HTTPCore
import Testing

/// Feeds `bytes` to one parser in pieces of `chunk` bytes and collects every request, then the
/// error if one was thrown.
func parseAll(_ bytes: [UInt8], chunk: Int = .max, limit: Int = HTTPRequestParser.defaultMaximumHeadLength)
    -> (requests: [HTTPRequest], error: HTTPParseError?, left: [UInt8])
{
    var parser = HTTPRequestParser(maximumHeadLength: limit)
    var buffer: [UInt8] = []
    var requests: [HTTPRequest] = []
    var start = 0
    while start < bytes.count {
        let end = bytes.count - start > chunk ? start + chunk : bytes.count
        buffer.append(contentsOf: bytes[start..<end])
        start = end
        do {
            while let request = try parser.decode(buffer: &buffer) { requests.append(request) }
        } catch {
            return (requests, error, buffer)
        }
    }
    return (requests, nil, buffer)
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite struct HTTPRequestParserTests {
    // MARK: Published examples and real clients

    @Test func readsRFC9112OriginFormExample() throws {
        // RFC 9112 section 3.2.1.
        let result = parseAll(bytes("GET /where?q=now HTTP/1.1\r\nHost: www.example.org\r\n\r\n"))
        #expect(result.error == nil)
        let request = try #require(result.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/where")
        #expect(request.query == "q=now")
        #expect(request.version == .http1_1)
        #expect(request.headers["host"] == "www.example.org")
        #expect(request.keepAlive)
        #expect(!request.isWebSocketUpgrade)
    }

    @Test func readsRFC9112AbsoluteFormExample() throws {
        // RFC 9112 section 3.2.2: a server must accept absolute-form.
        let result = parseAll(
            bytes("GET http://www.example.org/pub/WWW/TheProject.html HTTP/1.1\r\nHost: www.example.org\r\n\r\n"))
        let request = try #require(result.requests.first)
        #expect(request.path == "/pub/WWW/TheProject.html")
        #expect(request.query == nil)
    }

    @Test func readsRFC9110HelloExample() throws {
        let result = parseAll(
            bytes(
                "GET /hello.txt HTTP/1.1\r\nUser-Agent: curl/7.64.1\r\nHost: www.example.com\r\n"
                    + "Accept-Language: en, mi\r\n\r\n"))
        let request = try #require(result.requests.first)
        #expect(request.headers.fields.map(\.name) == ["User-Agent", "Host", "Accept-Language"])
        #expect(request.headers["ACCEPT-LANGUAGE"] == "en, mi")
        #expect(request.headers.contains(token: "MI", in: "accept-language"))
    }

    @Test func readsRFC6455HandshakeExample() throws {
        // RFC 6455 section 1.2.
        let result = parseAll(
            bytes(
                "GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://example.com\r\n"
                    + "Sec-WebSocket-Protocol: chat, superchat\r\nSec-WebSocket-Version: 13\r\n\r\n"))
        let request = try #require(result.requests.first)
        #expect(request.isWebSocketUpgrade)
        #expect(request.headers["sec-websocket-key"] == "dGhlIHNhbXBsZSBub25jZQ==")
    }

    /// `curl http://127.0.0.1:8000/knob/gain?VALUE` (curl 7.88, Debian 12).
    static let curl =
        "GET /knob/gain?VALUE HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n"
    /// python-oscquery reading HOST_INFO through `requests`.
    static let python =
        "GET /?HOST_INFO HTTP/1.1\r\nHost: 192.168.1.20:8000\r\nUser-Agent: python-requests/2.31.0\r\n"
        + "Accept-Encoding: gzip, deflate\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n"
    /// Chromium 120 opening `new WebSocket("ws://localhost:8000/")`.
    static let chromiumWebSocket =
        "GET / HTTP/1.1\r\nHost: localhost:8000\r\nConnection: Upgrade\r\nPragma: no-cache\r\n"
        + "Cache-Control: no-cache\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        + "Chrome/120.0.0.0 Safari/537.36\r\nUpgrade: websocket\r\nOrigin: http://localhost:8000\r\n"
        + "Sec-WebSocket-Version: 13\r\nAccept-Encoding: gzip, deflate, br\r\nAccept-Language: en-US,en;q=0.9\r\n"
        + "Sec-WebSocket-Key: x3JJHMbDL1EzLkh9GBhXDw==\r\n"
        + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
    /// Chromium 120 loading `http://localhost:8000/ui`.
    static let chromiumPage =
        "GET /ui HTTP/1.1\r\nHost: localhost:8000\r\nConnection: keep-alive\r\n"
        + "sec-ch-ua: \"Not_A Brand\";v=\"8\", \"Chromium\";v=\"120\"\r\nsec-ch-ua-mobile: ?0\r\n"
        + "sec-ch-ua-platform: \"Linux\"\r\nUpgrade-Insecure-Requests: 1\r\n"
        + "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
        + "Safari/537.36\r\nAccept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
        + "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7\r\nSec-Fetch-Site: none\r\n"
        + "Sec-Fetch-Mode: navigate\r\nSec-Fetch-User: ?1\r\nSec-Fetch-Dest: document\r\n"
        + "Accept-Encoding: gzip, deflate, br\r\nAccept-Language: en-US,en;q=0.9\r\n\r\n"

    @Test func readsCurl() throws {
        let request = try #require(parseAll(bytes(Self.curl)).requests.first)
        #expect(request.path == "/knob/gain")
        #expect(request.query == "VALUE")
        #expect(request.keepAlive)
    }

    @Test func readsCurlHead() throws {
        let text = "HEAD / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n"
        let request = try #require(parseAll(bytes(text)).requests.first)
        #expect(request.method == "HEAD")
    }

    @Test func readsPythonOSCQuery() throws {
        let request = try #require(parseAll(bytes(Self.python)).requests.first)
        #expect(request.path == "/")
        #expect(request.query == "HOST_INFO")
        #expect(request.headers.contains(token: "deflate", in: "Accept-Encoding"))
    }

    @Test func readsChromiumWebSocketUpgrade() throws {
        let request = try #require(parseAll(bytes(Self.chromiumWebSocket)).requests.first)
        #expect(request.isWebSocketUpgrade)
        #expect(request.headers.fields.count == 12)
    }

    @Test func readsChromiumPage() throws {
        let request = try #require(parseAll(bytes(Self.chromiumPage)).requests.first)
        #expect(request.path == "/ui")
        #expect(request.headers["sec-ch-ua"] == "\"Not_A Brand\";v=\"8\", \"Chromium\";v=\"120\"")
        #expect(!request.isWebSocketUpgrade)
    }

    // MARK: Incremental and pipelined

    @Test(arguments: [curl, python, chromiumWebSocket, chromiumPage])
    func bytesAtATimeGiveTheSameRequest(text: String) {
        let whole = parseAll(bytes(text))
        let single = parseAll(bytes(text), chunk: 1)
        #expect(whole.error == nil && whole.requests.count == 1)
        #expect(single.requests == whole.requests && single.error == nil)
        #expect(parseAll(bytes(text), chunk: 7).requests == whole.requests)
    }

    @Test func leavesPipelinedRequestsInTheBuffer() throws {
        var parser = HTTPRequestParser()
        var buffer = bytes(Self.curl + Self.python + "GET /x HT")
        let first = try parser.decode(buffer: &buffer)
        #expect(first?.query == "VALUE")
        #expect(buffer == bytes(Self.python + "GET /x HT"))
        let second = try parser.decode(buffer: &buffer)
        #expect(second?.query == "HOST_INFO")
        #expect(try parser.decode(buffer: &buffer) == nil)
        buffer += bytes("TP/1.0\r\n\r\n")
        let third = try parser.decode(buffer: &buffer)
        #expect(third?.path == "/x" && third?.version == .http1_0)
        #expect(buffer.isEmpty)
    }

    @Test(arguments: [1, 3, 1000])
    func pipelinedRequestsByteAtATime(chunk: Int) {
        let text = Self.curl + Self.python + Self.chromiumWebSocket
        let result = parseAll(bytes(text), chunk: chunk)
        #expect(result.requests.map(\.path) == ["/knob/gain", "/", "/"])
        #expect(result.error == nil && result.left.isEmpty)
    }

    @Test func skipsEmptyLinesBeforeTheRequestLine() {
        // RFC 9112 section 2.2; the offsets of a later error count from the request line.
        let result = parseAll(bytes("\r\n\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n\r\nGET  / HTTP/1.1\r\n\r\n"), chunk: 1)
        #expect(result.requests.count == 1)
        #expect(result.error == .malformed(.requestLineSyntax, offset: 4))
    }

    @Test func acceptsBareLFLineEnds() throws {
        let request = try #require(parseAll(bytes("GET /a HTTP/1.1\nHost: x\n\n")).requests.first)
        #expect(request.headers["Host"] == "x")
    }

    // MARK: Limits

    /// A request whose head is exactly `length` bytes: the request line, `Host`, and one padding field.
    static func request(headLength length: Int) -> [UInt8] {
        let fixed = "GET / HTTP/1.1\r\nHost: h\r\nX: \r\n\r\n"
        return bytes(
            "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: length - fixed.utf8.count) + "\r\n\r\n")
    }

    @Test func acceptsAHeadOfExactlyTheLimit() {
        let head = Self.request(headLength: 8192)
        #expect(head.count == 8192)
        #expect(parseAll(head).requests.count == 1)
        #expect(parseAll(head, chunk: 1).requests.count == 1)
    }

    @Test func refusesAHeadOneByteOverTheLimit() {
        let head = Self.request(headLength: 8193)
        #expect(parseAll(head).error == .headersTooLarge(limit: 8192))
        #expect(parseAll(head, chunk: 1).error == .headersTooLarge(limit: 8192))
        #expect(HTTPParseError.headersTooLarge(limit: 8192).status == .requestHeaderFieldsTooLarge)
    }

    @Test func refusesAnEndlessHeadAsSoonAsItPassesTheLimit() throws {
        var parser = HTTPRequestParser(maximumHeadLength: 16)
        var buffer = bytes("GET / HTTP/1.1\r\n")
        #expect(try parser.decode(buffer: &buffer) == nil)
        buffer.append(UInt8(ascii: "X"))
        #expect(throws: HTTPParseError.headersTooLarge(limit: 16)) { try parser.decode(buffer: &buffer) }
    }

    @Test func emptyLinesBeforeTheRequestDoNotCount() {
        let head = bytes("\r\n\r\n") + Self.request(headLength: 8192)
        #expect(parseAll(head, chunk: 5).requests.count == 1)
    }

    @Test(arguments: ["Content-Length: 1", "content-length: 0001", "Transfer-Encoding: chunked"])
    func refusesABody(field: String) {
        let result = parseAll(bytes("POST / HTTP/1.1\r\nHost: h\r\n\(field)\r\n\r\nx"))
        let name = String(field.prefix { $0 != ":" })
        #expect(result.error == .bodyNotAllowed(field: name, offset: 26))
        #expect(result.error?.status == .contentTooLarge)
    }

    @Test func acceptsAZeroContentLength() {
        let result = parseAll(bytes("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"))
        #expect(result.requests.count == 1)
    }

    // MARK: Malformed requests

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", HTTPParseError.Reason.obsoleteLineFolding, 25),
        ("GET / HTTP/1.1\r\nHost: h\r\n\tfolded\r\n\r\n", .obsoleteLineFolding, 25),
        ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", .whitespaceInHeaderName, 20),
        ("GET / HTTP/1.1\r\nX Y: h\r\nHost: h\r\n\r\n", .whitespaceInHeaderName, 17),
        ("GET / HTTP/1.1\r\nX(: h\r\nHost: h\r\n\r\n", .invalidHeaderName, 17),
        ("GET / HTTP/1.1\r\n: h\r\nHost: h\r\n\r\n", .invalidHeaderName, 16),
        ("GET / HTTP/1.1\r\nHost h\r\n\r\n", .missingColon, 22),
        ("GET / HTTP/1.1\r\nHost: h\rX\r\n\r\n", .bareCR, 23),
        ("GET / HTTP/1.1\rHost: h\r\n\r\n", .bareCR, 14),
        ("GET / HTTP/1.1\r\nHost: h\0\r\n\r\n", .nulByte, 23),
        ("GET /%00 HTTP/1.1\r\nHost: h\r\n\r\n", .nulByte, 5),
        ("GET / HTTP/1.1\r\nHost: h\u{1}i\r\n\r\n", .controlCharacter, 23),
        ("GET / HTTP/1.1\r\nHost: h\u{7F}\r\n\r\n", .controlCharacter, 23),
        ("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", .duplicateContentLength, 44),
        ("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 1\r\n\r\n", .invalidContentLength, 25),
        ("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", .invalidContentLength, 25),
        ("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", .missingHost, 29),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .duplicateHost, 25),
        ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .requestLineSyntax, 4),
        ("GET /\r\nHost: h\r\n\r\n", .requestLineSyntax, 5),
        ("GET\r\n\r\n", .requestLineSyntax, 3),
        (" GET / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidMethod, 0),
        ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidMethod, 1),
        ("GET / HTTP/1.1 \r\nHost: h\r\n\r\n", .invalidVersion, 6),
        ("GET / http/1.1\r\nHost: h\r\n\r\n", .invalidVersion, 6),
        ("GET / HTTP/1.10\r\nHost: h\r\n\r\n", .invalidVersion, 6),
        ("GET / HTTP/1.1\tx\r\nHost: h\r\n\r\n", .invalidVersion, 6),
        ("GET /a#b HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 6),
        ("GET /\u{E9} HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 5),
        ("GET * HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 4),
        ("GET ftp://h/ HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 4),
        ("GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 11),
        ("GET /a%2 HTTP/1.1\r\nHost: h\r\n\r\n", .invalidPercentEncoding, 6),
        ("GET /a%zz HTTP/1.1\r\nHost: h\r\n\r\n", .invalidPercentEncoding, 6),
        ("GET /%FF HTTP/1.1\r\nHost: h\r\n\r\n", .pathNotUTF8, 4),
        ("GET /.. HTTP/1.1\r\nHost: h\r\n\r\n", .pathEscapesRoot, 5),
        ("GET /a/../../b HTTP/1.1\r\nHost: h\r\n\r\n", .pathEscapesRoot, 10),
        ("GET /%2e%2E/etc HTTP/1.1\r\nHost: h\r\n\r\n", .pathEscapesRoot, 5),
        ("GET /a%2F..%2F.. HTTP/1.1\r\nHost: h\r\n\r\n", .pathEscapesRoot, 14),
    ])
    func refusesMalformed(text: String, reason: HTTPParseError.Reason, offset: Int) {
        let whole = parseAll(bytes(text))
        #expect(whole.error == .malformed(reason, offset: offset))
        #expect(whole.error?.status == .badRequest)
        #expect(parseAll(bytes(text), chunk: 1).error == whole.error)
    }

    @Test(arguments: [("HTTP/2.0", 2, 0), ("HTTP/0.9", 0, 9), ("HTTP/1.2", 1, 2), ("HTTP/3.0", 3, 0)])
    func refusesOtherVersions(version: String, major: Int, minor: Int) {
        let result = parseAll(bytes("GET / \(version)\r\nHost: h\r\n\r\n"))
        #expect(result.error == .unsupportedVersion(major: major, minor: minor, offset: 6))
        #expect(result.error?.status == .httpVersionNotSupported)
    }

    @Test func http10NeedsNoHost() throws {
        let request = try #require(parseAll(bytes("GET / HTTP/1.0\r\n\r\n")).requests.first)
        #expect(request.version == .http1_0)
        #expect(!request.keepAlive)
    }

    // MARK: Paths

    @Test(arguments: [
        ("/", "/"), ("/knob/gain", "/knob/gain"), ("/a%20b", "/a b"), ("/%C3%A9t%C3%A9", "/été"),
        ("/a/./b", "/a/b"), ("/a/b/../c", "/a/c"), ("/a/..", "/"), ("/a/b/..", "/a/"), ("/a/.", "/a/"),
        ("/a/", "/a/"), ("/a//b", "/a//b"), ("/a%2Fb", "/a/b"), ("/a%2fb%2F..", "/a/"), ("/%2E", "/"),
        ("/...", "/..."), ("/%25", "/%"), ("/~user", "/~user"),
    ])
    func decodesPaths(target: String, path: String) throws {
        let request = try #require(parseAll(bytes("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")).requests.first)
        #expect(request.path == path)
    }

    @Test(arguments: [
        ("/?VALUE", "VALUE"), ("/x?", ""), ("/x?a=b&c", "a=b&c"), ("/x??a", "?a"), ("/x?%41", "%41"),
    ])
    func keepsTheQueryAsSent(target: String, query: String) throws {
        let request = try #require(parseAll(bytes("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")).requests.first)
        #expect(request.query == query)
    }

    @Test func absoluteFormWithoutPathIsRoot() throws {
        let request = try #require(
            parseAll(bytes("GET HTTP://h:8000?HOST_INFO HTTP/1.1\r\nHost: h\r\n\r\n")).requests.first)
        #expect(request.path == "/" && request.query == "HOST_INFO")
    }
}
