import HTTPCore
import Testing

/// The client's response parser: bodies by Content-Length, to the connection's end, or none;
/// transfer codings refused; limits checked before the bytes are kept; byte-by-byte feeding.
@Suite struct HTTPResponseParserTests {
    static func parse(_ text: String, pieces: Int = .max, parser: HTTPResponseParser = HTTPResponseParser())
        throws(HTTPResponseError) -> (HTTPReceivedResponse?, [UInt8])
    {
        var parser = parser
        var buffer: [UInt8] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + pieces)
            buffer += bytes[start..<end]
            start = end
            if let response = try parser.decode(buffer: &buffer) { return (response, buffer) }
        }
        return (nil, buffer)
    }

    @Test(arguments: [1, 3, Int.max])
    func aBodyOfContentLengthBytes(pieces: Int) throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}NEXT"
        let (response, rest) = try Self.parse(text, pieces: pieces)
        let parsed = try #require(response)
        #expect(parsed.status == 200 && parsed.reason == "OK" && parsed.minorVersion == 1)
        #expect(parsed.headers["content-type"] == "application/json")
        #expect(parsed.body == Array("{\"a\":1}".utf8))
        #expect(parsed.keepsAlive)
        // What follows belongs to the next response (when all came in one piece).
        if pieces == .max { #expect(rest == Array("NEXT".utf8)) }
    }

    @Test func anHTTP10BodyRunsToTheConnectionsEnd() throws {
        // python-oscquery's answers: HTTP/1.0, no Content-Length.
        var parser = HTTPResponseParser()
        var buffer = Array("HTTP/1.0 200 OK\r\nContent-type: text/json\r\n\r\n{\"FULL".utf8)
        #expect(try parser.decode(buffer: &buffer) == nil)
        buffer += Array("_PATH\":\"/\"}".utf8)
        #expect(try parser.decode(buffer: &buffer) == nil)
        let response = try #require(try parser.finish(buffer: &buffer))
        #expect(response.body == Array("{\"FULL_PATH\":\"/\"}".utf8))
        #expect(!response.keepsAlive)
    }

    @Test func a101EndsAtItsHeadAndLeavesTheFrames() throws {
        let text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\u{81}\u{02}hi"
        let (response, rest) = try Self.parse(text)
        #expect(response?.status == 101 && response?.body == [])
        #expect(rest == [0xC2, 0x81, 0x02, 0x68, 0x69])
    }

    @Test(arguments: [204, 304])
    func noBodyStatuses(status: Int) throws {
        let (response, rest) = try Self.parse("HTTP/1.1 \(status) X\r\n\r\nrest")
        #expect(response?.status == status && response?.body == [] && rest == Array("rest".utf8))
    }

    @Test func aHeadResponseHasNoBodyWhateverItsLength() throws {
        var parser = HTTPResponseParser()
        parser.reset(forMethod: "HEAD")
        let (response, _) = try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", parser: parser)
        #expect(response?.body == [])
    }

    @Test func chunkedIsRefused() {
        #expect(throws: HTTPResponseError.transferCodingRefused("chunked")) {
            try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        }
    }

    @Test func anAnnouncedBodyOverTheLimitIsRefusedAtOnce() {
        let parser = HTTPResponseParser(maximumBodyLength: 10)
        #expect(throws: HTTPResponseError.bodyTooLarge(length: 11, limit: 10)) {
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", parser: parser)
        }
    }

    @Test func anUndelimitedBodyOverTheLimitIsRefused() {
        var parser = HTTPResponseParser(maximumBodyLength: 4)
        var buffer = Array("HTTP/1.0 200 OK\r\n\r\n12345".utf8)
        #expect(throws: HTTPResponseError.bodyTooLarge(length: nil, limit: 4)) { try parser.decode(buffer: &buffer) }
    }

    @Test func aHeadOverTheLimitIsRefusedBeforeItEnds() {
        let parser = HTTPResponseParser(maximumHeadLength: 64)
        let text = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 100)
        #expect(throws: HTTPResponseError.headTooLarge(limit: 64)) { try Self.parse(text, parser: parser) }
    }

    @Test func aCutOffBodyIsTruncated() {
        var parser = HTTPResponseParser()
        var buffer = Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n12345".utf8)
        #expect(throws: HTTPResponseError.truncated(received: 5, expected: 10)) { try parser.finish(buffer: &buffer) }
        var head = HTTPResponseParser()
        var partial = Array("HTTP/1.1 200".utf8)
        #expect(throws: HTTPResponseError.truncated(received: 12, expected: nil)) { try head.finish(buffer: &partial) }
    }

    @Test(arguments: [
        "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 200OK\r\n\r\n", "http/1.1 200 OK\r\n\r\n",
        "HTTP/1.1 099 X\r\n\r\n", "ICY 200 OK\r\n\r\n",
    ])
    func badStatusLines(text: String) {
        #expect(throws: HTTPResponseError.self) { try Self.parse(text) }
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX : y\r\n\r\n", "HTTP/1.1 200 OK\r\n folded\r\n\r\n", "HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX: a\u{0}\r\n\r\n",
    ])
    func badHeadsAreRefused(text: String) {
        #expect(throws: HTTPResponseError.self) { try Self.parse(text) }
    }

    @Test func lineFeedsAloneEndTheHead() throws {
        let (response, _) = try Self.parse("HTTP/1.1 200 OK\nContent-Length: 2\n\nok")
        #expect(response?.body == Array("ok".utf8))
    }

    @Test func responsesOnOneConnectionFollowEachOther() throws {
        var parser = HTTPResponseParser()
        var buffer = Array(
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 404 No\r\nContent-Length: 1\r\n\r\nb".utf8)
        let first = try parser.decode(buffer: &buffer)
        let second = try parser.decode(buffer: &buffer)
        #expect(first?.body == [0x61] && second?.status == 404 && second?.body == [0x62] && buffer.isEmpty)
    }
}

/// The client's half of the opening handshake and its reading of a server's frames.
@Suite struct WebSocketClientTests {
    static let nonce = Array("the sample nonce".utf8)

    static func response(_ lines: [String]) throws -> HTTPReceivedResponse {
        var parser = HTTPResponseParser()
        var buffer = Array((lines + ["", ""]).joined(separator: "\r\n").utf8)
        // A 200 without Content-Length ends with the connection.
        return try #require(try parser.decode(buffer: &buffer) ?? parser.finish(buffer: &buffer))
    }

    @Test func theRequestCarriesTheKeyAndVersion() {
        let handshake = WebSocketClientHandshake(nonce: Self.nonce)
        #expect(handshake.key == "dGhlIHNhbXBsZSBub25jZQ==")
        let text = String(decoding: handshake.request(target: "/", host: "h:1"), as: UTF8.self)
        #expect(text.hasPrefix("GET / HTTP/1.1\r\nHost: h:1\r\n"))
        #expect(text.contains("\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
        #expect(text.contains("\r\nSec-WebSocket-Version: 13\r\n") && text.hasSuffix("\r\n\r\n"))
        // A request parses as one with the server's own parser, and its key is accepted.
        var parser = HTTPRequestParser()
        var bytes = handshake.request(target: "/", host: "h:1")
        let request = try? parser.decode(buffer: &bytes)
        #expect(request?.headers["Sec-WebSocket-Key"].flatMap(WebSocketHandshake.acceptValue(forKey:)) != nil)
    }

    @Test func randomKeysDiffer() {
        #expect(WebSocketClientHandshake().key != WebSocketClientHandshake().key)
    }

    @Test func theServersOwn101IsAccepted() throws {
        let handshake = WebSocketClientHandshake(nonce: Self.nonce)
        var parser = HTTPResponseParser()
        var buffer = try #require(WebSocketHandshake.response(forKey: handshake.key))
        let response = try #require(try parser.decode(buffer: &buffer))
        try handshake.check(response)
    }

    @Test func faultsOfThe101AreRefused() throws {
        let handshake = WebSocketClientHandshake(nonce: Self.nonce)
        let good = [
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ]
        #expect(throws: WebSocketHandshakeError.notSwitching(status: 200, reason: "OK")) {
            try handshake.check(try Self.response(["HTTP/1.1 200 OK"] + good.dropFirst()))
        }
        #expect(throws: WebSocketHandshakeError.missingUpgrade) {
            try handshake.check(try Self.response(good.filter { !$0.hasPrefix("Upgrade") }))
        }
        #expect(throws: WebSocketHandshakeError.missingConnectionUpgrade) {
            try handshake.check(try Self.response(good.filter { !$0.hasPrefix("Connection") }))
        }
        #expect(throws: WebSocketHandshakeError.wrongAccept("AAAA")) {
            try handshake.check(try Self.response(Array(good.dropLast()) + ["Sec-WebSocket-Accept: AAAA"]))
        }
        #expect(throws: WebSocketHandshakeError.unrequestedExtension("permessage-deflate")) {
            try handshake.check(try Self.response(good + ["Sec-WebSocket-Extensions: permessage-deflate"]))
        }
        #expect(throws: WebSocketHandshakeError.unrequestedProtocol("chat")) {
            try handshake.check(try Self.response(good + ["Sec-WebSocket-Protocol: chat"]))
        }
    }

    @Test func aClientReadsUnmaskedFramesAndRefusesMaskedOnes() throws {
        var decoder = WebSocketFrameDecoder(role: .client)
        var buffer = WebSocketFrameEncoder().encode(.binary([1, 2, 3])) + WebSocketFrameEncoder().encode(.text("hé"))
        #expect(try decoder.decode(buffer: &buffer) == .binary([1, 2, 3]))
        #expect(try decoder.decode(buffer: &buffer) == .text("hé"))
        var masked = WebSocketFrameEncoder.masked(WebSocketFrameEncoder().encode(.text("x")), key: [9, 8, 7, 6])
        var other = WebSocketFrameDecoder(role: .client)
        #expect(throws: WebSocketError.maskedFrame(offset: 0)) { try other.decode(buffer: &masked) }
        #expect(WebSocketError.maskedFrame(offset: 0).closeCode == .protocolError)
    }

    @Test func aClientsFramesAreWhatTheServerReads() throws {
        var server = WebSocketFrameDecoder()
        let key: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]
        var buffer = WebSocketFrameEncoder.masked(WebSocketFrameEncoder().encode(.binary(Array(0..<200))), key: key)
        #expect(try server.decode(buffer: &buffer) == .binary(Array(0..<200)))
    }
}
