import HTTPCore
import Testing

@Suite struct HTTPStatusTests {
    @Test(arguments: [
        (HTTPStatus.ok, "HTTP/1.1 200 OK"), (.notFound, "HTTP/1.1 404 Not Found"),
        (.requestHeaderFieldsTooLarge, "HTTP/1.1 431 Request Header Fields Too Large"),
        (.switchingProtocols, "HTTP/1.1 101 Switching Protocols"),
    ])
    func statusLinesAreRFC9110s(status: HTTPStatus, line: String) {
        #expect(status.statusLine == line)
    }

    @Test func everyCodeHasAPhrase() {
        #expect(HTTPStatus.allCases.allSatisfy { !$0.reasonPhrase.isEmpty && (100..<600).contains($0.rawValue) })
    }
}
