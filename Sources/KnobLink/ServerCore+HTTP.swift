import Dispatch
import HTTPCore
import OSCQuery
import OSCTransport
import WebSurface

/// HTTP/1.1 on the server's TCP port (PROTOCOL.md sections 1, 7 and 8): a connection whose first
/// bytes are not OSC is handed here, answered request by request (OSCQuery, the web page), and
/// becomes a WebSocket peer when it asks to upgrade.
extension ServerCore {
    /// Takes over a connection that started with another protocol than OSC; `bytes` were read so far.
    func httpConnectionOpened(_ connection: OSCTCPConnection, _ bytes: UnsafeRawBufferPointer) {
        guard !stopped else { return connection.close() }
        guard configuration.allowList.contains(connection.remoteAddress) else {
            stats.disallowedPeer += 1
            return connection.close()
        }
        guard let first = bytes.first, Self.startsAnHTTPMethod(first) else {
            stats.otherProtocol += 1
            log(
                LogEvent(
                    level: .warning,
                    message: "\(connection) closed: \(Self.why(.otherProtocolRefused, connection))"))
            return connection.close()
        }
        stats.httpConnections += 1
        let session = HTTPSession(
            connection: connection, maximumHeadLength: configuration.maxHTTPHeadLength, now: Self.nowNanoseconds())
        httpSessions[ObjectIdentifier(connection)] = session
        let reference = reference
        connection.setRawHandler { bytes in reference.withCore { $0.httpBytes(bytes, on: session) } }
        httpBytes(bytes, on: session)
    }

    /// HTTP methods start with an upper-case letter (`GET`, `HEAD`, `OPTIONS`, …): anything else
    /// is refused as before, without an HTTP answer it could not read.
    static func startsAnHTTPMethod(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    func httpBytes(_ bytes: UnsafeRawBufferPointer, on session: HTTPSession) {
        guard !stopped, !session.finished else { return }
        let now = Self.nowNanoseconds()
        session.lastActivity = now
        if let webSocket = session.webSocket {
            return webSocketBytes(bytes, on: webSocket)
        }
        if session.requestStarted == nil && !bytes.isEmpty { session.requestStarted = now }
        session.input.append(contentsOf: bytes)
        while !session.finished && session.webSocket == nil {
            let request: HTTPRequest?
            do {
                request = try session.parser.decode(buffer: &session.input)
            } catch {
                stats.httpBadRequests += 1
                log(LogEvent(level: .info, message: "\(session.connection): \(error)"))
                session.send(HTTPResponse(error: error))
                return
            }
            guard let request else { break }
            session.requestStarted = session.input.isEmpty ? nil : now
            answer(request, on: session)
        }
        if let webSocket = session.webSocket, !session.input.isEmpty {
            // Frames that came in the same read as the upgrade request.
            let rest = session.input
            session.input = []
            rest.withUnsafeBytes { webSocketBytes($0, on: webSocket) }
        }
        scheduleHTTPTimer(session)
    }

    private func answer(_ request: HTTPRequest, on session: HTTPSession) {
        stats.httpRequests += 1
        if request.isWebSocketUpgrade {
            return upgrade(session, request)
        }
        if let refusal = Self.refusedUpgrade(request) {
            stats.httpBadRequests += 1
            return session.send(refusal)
        }
        session.send(httpResponse(for: request, on: session).answering(request))
    }

    /// The answer to a plain request: the web page under `/ui`, the OSCQuery namespace elsewhere.
    func httpResponse(for request: HTTPRequest, on session: HTTPSession) -> HTTPResponse {
        if request.path == "/ui" || request.path.hasPrefix("/ui/") {
            guard request.method == "GET" || request.method == "HEAD" else {
                var response = HTTPResponse.error(.methodNotAllowed, detail: "the web page is read with GET or HEAD")
                response.headers.append(name: "Allow", value: "GET, HEAD")
                return response
            }
            guard let asset = WebSurfaceAssets.asset(forPath: request.path, themeJSON: configuration.themeJSON) else {
                return HTTPResponse.error(.notFound, detail: "no such file of the web page: \(request.path)")
            }
            var response = HTTPResponse(status: .ok, contentType: asset.contentType, body: asset.body)
            // The page is part of the binary: a browser may keep it while the server runs.
            response.headers.append(name: "Cache-Control", value: "no-cache")
            return response
        }
        let hostInfo = OSCQueryHostInfo(
            name: name, oscPort: Int(udp?.localAddress.port ?? configuration.port),
            oscIP: session.connection.localAddress.host, extensions: Self.servedExtensions)
        return namespace.response(to: request, hostInfo: hostInfo)
    }

    /// What `HOST_INFO` lists: exactly what is served, the `PATH_…` notifications of a tree
    /// reload included (ServerCore+TreeReload.swift).
    static let servedExtensions = OSCQueryHostInfo.servedExtensions

    // MARK: Timeouts

    /// Arms the connection's one timer: the slow-request deadline while a request is being
    /// read, the idle deadline between requests; none once it is a WebSocket.
    func scheduleHTTPTimer(_ session: HTTPSession) {
        session.timer?.cancel()
        session.timer = nil
        guard !session.finished, session.webSocket == nil else { return }
        let (start, limit) =
            session.requestStarted.map { ($0, configuration.httpRequestTimeout) }
            ?? (session.lastActivity, configuration.httpIdleTimeout)
        guard limit > 0 else { return }
        let due = Double(start) / 1e9 + limit
        let reference = reference
        session.timer = loop.schedule(at: Deadline.at(uptimeSeconds: due)) {
            reference.withCore { $0.httpTimerFired(session) }
        }
    }

    private func httpTimerFired(_ session: HTTPSession) {
        guard !session.finished, session.webSocket == nil, !session.connection.isClosed else { return }
        let now = Self.nowNanoseconds()
        if let started = session.requestStarted {
            guard Double(now &- started) / 1e9 >= configuration.httpRequestTimeout else {
                return scheduleHTTPTimer(session)
            }
            stats.httpTimeouts += 1
            var response = HTTPResponse.error(
                .requestTimeout,
                detail: "the request did not arrive whole within \(Self.seconds(configuration.httpRequestTimeout))")
            response.closesConnection = true
            return session.send(response)
        }
        guard Double(now &- session.lastActivity) / 1e9 >= configuration.httpIdleTimeout else {
            return scheduleHTTPTimer(session)
        }
        stats.httpIdleClosed += 1
        session.finished = true
        session.connection.close()
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Forgets the HTTP side of a closed connection (its WebSocket peer leaves with the peer table).
    func httpConnectionClosed(_ connection: OSCTCPConnection) {
        guard let session = httpSessions.removeValue(forKey: ObjectIdentifier(connection)) else { return }
        session.finished = true
        session.timer?.cancel()
        session.timer = nil
    }
}
