import Dispatch
import HTTPCore
import OSCTransport

/// One connection that spoke HTTP on the server's TCP port (PROTOCOL.md section 1): its
/// requests are answered in order until it closes or upgrades to a WebSocket. Owned by the
/// event loop; the core keeps it in ``ServerCore/httpSessions`` while the connection is open.
final class HTTPSession: @unchecked Sendable {
    let connection: OSCTCPConnection
    var parser: HTTPRequestParser
    /// Bytes of the request being read (at most the parser's head limit: it refuses more).
    var input: [UInt8] = []
    /// Set once the connection upgraded: every later byte is a WebSocket frame.
    var webSocket: WebSocketSession?
    /// When the first byte of the request being read arrived (monotonic nanoseconds), or `nil`
    /// between requests; and when the connection was last busy.
    var requestStarted: UInt64?
    var lastActivity: UInt64
    /// The one timer of the connection: the idle or slow-request deadline, whichever applies.
    var timer: DispatchWorkItem?
    /// Set after a response that closes the connection: later bytes are ignored.
    var finished = false

    init(connection: OSCTCPConnection, maximumHeadLength: Int, now: UInt64) {
        self.connection = connection
        parser = HTTPRequestParser(maximumHeadLength: maximumHeadLength)
        lastActivity = now
    }

    /// Sends `response` and closes the connection after it when it says so.
    func send(_ response: HTTPResponse) {
        // Head and body apart: the body (164 KB for `GET /` of 1,000 parameters) is never copied
        // behind the head; a fresh buffer that size cost page faults on every request.
        connection.write(response.encodedHead())
        if response.includesBody && !response.body.isEmpty { connection.write(response.body) }
        if response.closesConnection {
            finished = true
            timer?.cancel()
            connection.closeAfterWriting()
        }
    }
}
