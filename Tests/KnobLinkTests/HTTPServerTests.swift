import Foundation
import OSCCore
import Testing

@testable import KnobLink

/// HTTP/1.1 on the server's TCP port (PROTOCOL.md sections 1, 7 and 8), read byte for byte from
/// a raw socket: what curl, a browser or an attacker sends.
@Suite struct HTTPServerTests {
    @Test func anHTTPRequestIsAnsweredOnTheOSCPort() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        let response = try #require(await client.request("GET /no/such/node HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(response.status == 404)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["access-control-allow-origin"] == "*")
        #expect(Int(response.headers["content-length"] ?? "") == response.body.count)
        #expect((response.json as? [String: Any])?["STATUS"] as? Int == 404)
        #expect(fixture.statistic("httpConnections") == 1)
        #expect(fixture.statistic("otherProtocol") == 0)
    }

    @Test func keepAliveAnswersRequestsInOrderOnOneConnection() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        // Two pipelined in one write, then a third after the answers.
        client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nHEAD /b HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try #require(await client.response())
        let second = try #require(await client.response(head: true))
        #expect(first.status == 404 && first.text.contains("/a"))
        #expect(second.status == 404 && second.body.isEmpty && Int(second.headers["content-length"] ?? "0")! > 0)
        let third = try #require(await client.request("GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        #expect(third.text.contains("/c"))
        #expect(await client.waitForClose())
        #expect(fixture.statistic("httpRequests") == 3)
    }

    @Test func headersOverTheLimitGet431AndClose() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        let filler = String(repeating: "a", count: 9000)
        let response = try #require(await client.request("GET / HTTP/1.1\r\nX-Filler: \(filler)\r\n\r\n"))
        #expect(response.status == 431)
        #expect(await client.waitForClose())
        #expect(fixture.statistic("httpBadRequests") == 1)
    }

    @Test func aRequestBodyGets413() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        let response = try #require(
            await client.request("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"))
        #expect(response.status == 413)
        #expect(await client.waitForClose())
    }

    @Test(arguments: [
        ("GET / HTTP/2.0\r\n\r\n", 505), ("GET nothing HTTP/1.1\r\n\r\n", 400), ("GET /../etc HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
    ])
    func malformedRequestsGetAnErrorAndLoseNothing(request: String, status: Int) async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        let response = try #require(await client.request(request))
        #expect(response.status == status)
        #expect((response.json as? [String: Any])?["DETAIL"] as? String != nil)
        // The server goes on serving OSC.
        let peer = try fixture.peer()
        #expect(await peer.request("/sys/ping", reply: "/sys/pong") != nil)
    }

    @Test func aSlowRequestGets408() async throws {
        let fixture = try ServerFixture { $0.httpRequestTimeout = 0.3 }
        let client = try RawTCPClient(port: fixture.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let response = try #require(await client.response())
        #expect(response.status == 408)
        #expect(await client.waitForClose())
        #expect(fixture.statistic("httpTimeouts") == 1)
    }

    @Test func anIdleConnectionIsClosed() async throws {
        let fixture = try ServerFixture { $0.httpIdleTimeout = 0.3 }
        let client = try RawTCPClient(port: fixture.port)
        #expect(await client.request("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 404)
        #expect(await client.waitForClose())
        #expect(fixture.statistic("httpIdleClosed") == 1)
    }

    @Test func aWebSocketUpgradeOfAnotherVersionGets426() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        let response = try #require(
            await client.request(
                "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(WebSocketTesting.key)\r\n"
                    + "Sec-WebSocket-Version: 8\r\n\r\n"))
        #expect(response.status == 426)
        #expect(response.headers["sec-websocket-version"] == "13")
    }

    @Test func anHTTPPeerOutsideTheAllowListIsClosedUnanswered() async throws {
        let fixture = try ServerFixture { $0.allowList = try! AllowList(parsing: ["10.0.0.0/8"]) }
        let client = try RawTCPClient(port: fixture.port)
        client.send("GET / HTTP/1.1\r\n\r\n")
        #expect(await client.waitForClose())
        #expect(client.bytes.isEmpty)
        #expect(fixture.statistic("disallowedPeer") == 1)
    }
}

/// The web page served from the server (`GET /ui`, WebSurface) with the `--theme-file` colours.
@Suite struct WebPageRouteTests {
    @Test func thePageAndItsFilesAreServedWithTheTheme() async throws {
        let theme = #"{"light":{"controlForegroundColor":"112233"},"dark":{"controlForegroundColor":"445566"}}"#
        let fixture = try ServerFixture { $0.themeJSON = theme }
        let client = try RawTCPClient(port: fixture.port)
        let page = try #require(await client.request("GET /ui HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.text.contains("445566"))
        let script = try #require(await client.request("GET /ui/ui.js HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(script.status == 200 && script.headers["content-type"]?.hasPrefix("text/javascript") == true)
        #expect(await client.request("GET /ui/nothing.js HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 404)
        #expect(await client.request("POST /ui HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 405)
    }
}
