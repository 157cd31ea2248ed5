import HTTPCore
import Testing

@Suite struct WebSocketHandshakeTests {
    // RFC 6455 section 1.3.
    @Test func rfc6455Example() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func responseBytes() {
        let response = WebSocketHandshake.response(forKey: "dGhlIHNhbXBsZSBub25jZQ==")
        let expected =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        #expect(response == Array(expected.utf8))
    }

    @Test(arguments: [
        "", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZQ=", " dGhlIHNhbXBsZSBub25jZQ==",
        "dGhlIHNhbXBsZSBub25jZQ== ", "dGhlIHNhbXBsZSBub25j", "dGhlIHNhbXBsZSBub25jZTE=", "dGhlIHNhbXBsZSBub25jZR==",
        "the sample nonce",
    ])
    func refusesKeysThatAreNotSixteenBytesOfBase64(key: String) {
        #expect(WebSocketHandshake.acceptValue(forKey: key) == nil)
        #expect(WebSocketHandshake.response(forKey: key) == nil)
    }
}
