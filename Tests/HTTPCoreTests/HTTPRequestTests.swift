import HTTPCore
import Testing

@Suite struct HTTPRequestTests {
    func request(_ version: HTTPRequest.Version = .http1_1, _ fields: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: "GET", path: "/", version: version, headers: HTTPHeaders([("Host", "h")] + fields))
    }

    @Test func keepAliveFollowsRFC9112Section9_3() {
        #expect(request(.http1_1, []).keepAlive)
        #expect(!request(.http1_1, [("Connection", "close")]).keepAlive)
        #expect(!request(.http1_1, [("connection", "Keep-Alive"), ("Connection", "CLOSE")]).keepAlive)
        #expect(!request(.http1_0, []).keepAlive)
        #expect(request(.http1_0, [("Connection", "Keep-Alive")]).keepAlive)
        #expect(!request(.http1_0, [("Connection", "keep-alive-ish")]).keepAlive)
    }

    static let upgrade: [(String, String)] = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Sec-WebSocket-Version", "13"),
    ]

    @Test func recognisesAWebSocketUpgradeInAnyCase() {
        #expect(request(.http1_1, Self.upgrade).isWebSocketUpgrade)
        let shouting = Self.upgrade.map { ($0.0.uppercased(), $0.0 == "Sec-WebSocket-Key" ? $0.1 : $0.1.uppercased()) }
        #expect(request(.http1_1, shouting).isWebSocketUpgrade)
        let firefox = Self.upgrade.map { $0.0 == "Connection" ? ($0.0, "keep-alive, Upgrade") : $0 }
        #expect(request(.http1_1, firefox).isWebSocketUpgrade)
    }

    @Test(arguments: ["Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version"])
    func aWebSocketUpgradeNeedsEveryField(missing: String) {
        #expect(!request(.http1_1, Self.upgrade.filter { $0.0 != missing }).isWebSocketUpgrade)
    }

    @Test func aWebSocketUpgradeIsAGetOfVersion13() {
        var post = request(.http1_1, Self.upgrade)
        post.method = "POST"
        #expect(!post.isWebSocketUpgrade)
        let version8 = Self.upgrade.map { $0.0 == "Sec-WebSocket-Version" ? ($0.0, "8") : $0 }
        #expect(!request(.http1_1, version8).isWebSocketUpgrade)
        let h2c = Self.upgrade.map { $0.0 == "Upgrade" ? ($0.0, "h2c") : $0 }
        #expect(!request(.http1_1, h2c).isWebSocketUpgrade)
    }

    @Test func headerLookupIgnoresCaseAndKeepsOrder() {
        var headers = HTTPHeaders([("Accept", "a"), ("accept", "b"), ("X", "c")])
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "Accept") == ["a", "b"])
        #expect(headers["missing"] == nil)
        headers.remove(name: "aCCept")
        #expect(headers.fields == [HTTPHeaders.Field(name: "X", value: "c")])
    }

    @Test func encodedRequestParsesBackToItself() throws {
        let original = HTTPRequest(
            method: "GET", path: "/a b/é/%/?#", query: "VALUE",
            headers: HTTPHeaders([("Host", "h"), ("X-Latin1", "caf\u{E9}"), ("Empty", "")]))
        let encoded = original.encoded()
        #expect(String(decoding: encoded, as: UTF8.self).hasPrefix("GET /a%20b/%C3%A9/%25/%3F%23?VALUE HTTP/1.1\r\n"))
        #expect(encoded.contains(0xE9))
        var buffer = encoded
        var parser = HTTPRequestParser()
        #expect(try parser.decode(buffer: &buffer) == original)
    }
}
