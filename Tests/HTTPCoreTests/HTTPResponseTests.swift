import HTTPCore
import Testing

@Suite struct HTTPResponseTests {
    func text(_ response: HTTPResponse) -> String { String(decoding: response.encoded(), as: UTF8.self) }

    @Test func writesStatusLineFieldsAndBody() {
        let response = HTTPResponse(status: .ok, body: Array("{\"VALUE\":[0.5]}".utf8))
        #expect(
            text(response)
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n"
                + "Access-Control-Allow-Origin: *\r\n\r\n{\"VALUE\":[0.5]}")
    }

    @Test func countsTheBodyInBytesNotCharacters() {
        let response = HTTPResponse(status: .ok, contentType: "text/html; charset=utf-8", body: Array("été".utf8))
        #expect(text(response).contains("Content-Length: 5\r\n"))
        #expect(text(response).contains("Content-Type: text/html; charset=utf-8\r\n"))
    }

    @Test func dropsALengthOrTransferEncodingAmongTheExtraHeaders() {
        var response = HTTPResponse(status: .ok, body: [1, 2, 3])
        response.headers.append(name: "content-length", value: "99")
        response.headers.append(name: "Transfer-Encoding", value: "chunked")
        response.headers.append(name: "Allow", value: "GET, HEAD")
        let written = text(response)
        #expect(!written.contains("99") && !written.contains("chunked"))
        #expect(written.contains("Content-Length: 3\r\n") && written.contains("Allow: GET, HEAD\r\n"))
    }

    @Test func headAnswerHasTheFieldsOfGetWithoutTheBody() throws {
        let body = Array("{\"FULL_PATH\":\"/\"}".utf8)
        let response = HTTPResponse(status: .ok, body: body)
        let get = HTTPRequest(method: "GET", path: "/", headers: HTTPHeaders([("Host", "h")]))
        var head = get
        head.method = "HEAD"
        let getBytes = response.answering(get).encoded()
        let headBytes = response.answering(head).encoded()
        #expect(Array(getBytes.prefix(headBytes.count)) == headBytes)
        #expect(Array(getBytes.dropFirst(headBytes.count)) == body)
        #expect(String(decoding: headBytes, as: UTF8.self).contains("Content-Length: 17\r\n"))
    }

    @Test(arguments: [
        (HTTPRequest.Version.http1_1, "", nil as String?), (.http1_1, "close", "close"), (.http1_0, "", "close"),
        (.http1_0, "keep-alive", "keep-alive"), (.http1_0, "Keep-Alive, close", "close"),
        (.http1_1, "Upgrade, Keep-Alive", nil),
    ])
    func connectionFieldFollowsTheRequest(version: HTTPRequest.Version, connection: String, expected: String?) {
        var headers = HTTPHeaders([("Host", "h")])
        if !connection.isEmpty { headers.append(name: "Connection", value: connection) }
        let request = HTTPRequest(method: "GET", path: "/", version: version, headers: headers)
        let answer = HTTPResponse(status: .ok).answering(request)
        let written = text(answer)
        if let expected {
            #expect(written.contains("\r\nConnection: \(expected)\r\n"))
        } else {
            #expect(!written.contains("Connection:"))
        }
        #expect(answer.closesConnection == !request.keepAlive)
    }

    @Test func aResponseThatClosesStaysClosingWhateverTheRequest() {
        var response = HTTPResponse(status: .notFound)
        response.closesConnection = true
        let request = HTTPRequest(method: "GET", path: "/", headers: HTTPHeaders([("Host", "h")]))
        #expect(text(response.answering(request)).contains("Connection: close\r\n"))
    }

    @Test func errorBodyIsJSON() {
        let response = HTTPResponse.error(.notFound, detail: "no node at \"/knob\\x\"\n")
        #expect(response.status == .notFound)
        #expect(response.contentType == "application/json")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == "{\"ERROR\":\"Not Found\",\"STATUS\":404,\"DETAIL\":\"no node at \\\"/knob\\\\x\\\"\\n\"}")
        #expect(!response.closesConnection)
    }

    @Test func controlCharactersInTheDetailAreEscaped() {
        let response = HTTPResponse.error(.badRequest, detail: "a\u{1}b")
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"DETAIL\":\"a\\u0001b\""))
    }

    @Test(arguments: [
        (HTTPParseError.headersTooLarge(limit: 8192), 431), (.bodyNotAllowed(field: "Content-Length", offset: 20), 413),
        (.unsupportedVersion(major: 2, minor: 0, offset: 6), 505), (.malformed(.obsoleteLineFolding, offset: 25), 400),
    ])
    func parseErrorsAnswerWithTheirStatusAndClose(error: HTTPParseError, code: Int) {
        let response = HTTPResponse(error: error)
        #expect(response.status.rawValue == code)
        let written = text(response)
        #expect(written.hasPrefix("HTTP/1.1 \(code) "))
        #expect(written.contains("Connection: close\r\n"))
        #expect(written.hasSuffix("\"DETAIL\":\"\(error.description)\"}"))
        #expect(written.contains("Content-Length: \(response.body.count)\r\n"))
    }

    @Test func malformedDetailSaysWhatAndWhere() {
        #expect(
            HTTPParseError.malformed(.obsoleteLineFolding, offset: 25).description == "obsolete line folding at byte 25"
        )
    }

    @Test func switchingProtocolsHasNoContentFields() {
        let response = HTTPResponse(
            status: .switchingProtocols, body: [1],
            headers: HTTPHeaders([
                ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
            ]))
        #expect(
            text(response)
                == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
    }

    @Test func aNoContentResponseHasNeitherLengthNorBody() {
        var response = HTTPResponse(status: .noContent, body: Array("ignored".utf8))
        response.headers.append(name: "Allow", value: "GET, HEAD, OPTIONS")
        #expect(
            text(response)
                == "HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\n"
                + "Access-Control-Allow-Origin: *\r\nAllow: GET, HEAD, OPTIONS\r\n\r\n")
    }
}
