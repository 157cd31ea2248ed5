import HTTPCore
import OSCCore
import OSCQuery
import OSCTransport

/// WebSocket peers (PROTOCOL.md section 7): the upgrade, the frames, and the OSCQuery commands.
/// A WebSocket is a peer like a UDP or TCP one: its binary frames are OSC packets handled like
/// theirs, and what it LISTENs to are subscriptions of its peer, so the echo rules, the rate
/// limits, `/sys/error` and the caps apply to it unchanged.
extension ServerCore {
    /// Completes the opening handshake, or refuses it with 400 or 426.
    func upgrade(_ session: HTTPSession, _ request: HTTPRequest) {
        guard let key = request.headers["Sec-WebSocket-Key"], let handshake = WebSocketHandshake.response(forKey: key)
        else {
            stats.httpBadRequests += 1
            var response = HTTPResponse.error(.badRequest, detail: "Sec-WebSocket-Key must be base64 of 16 bytes")
            response.closesConnection = true
            return session.send(response)
        }
        let webSocket = WebSocketSession(
            connection: session.connection, maximumMessageLength: configuration.maxFrameLength)
        session.webSocket = webSocket
        session.timer?.cancel()
        session.timer = nil
        session.connection.write(handshake)
        let peer = addPeer(.webSocket(webSocket), named: false)
        stats.webSocketsOpened += 1
        log(LogEvent(level: .info, message: "peer \(peer.description) connected (path \(request.path))"))
    }

    /// The answer to a request that names WebSocket in `Upgrade` but is not a handshake this
    /// server speaks (another version, no key).
    static func refusedUpgrade(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.headers.contains(token: "websocket", in: "Upgrade"), !request.isWebSocketUpgrade else {
            return nil
        }
        var response: HTTPResponse
        if request.headers["Sec-WebSocket-Version"] != "13" {
            response = .error(.upgradeRequired, detail: "this server speaks WebSocket version 13 (RFC 6455)")
            response.headers.append(name: "Sec-WebSocket-Version", value: "13")
        } else {
            response = .error(.badRequest, detail: "a WebSocket handshake is a GET with Connection: Upgrade and a key")
        }
        response.closesConnection = true
        return response
    }

    func webSocketBytes(_ bytes: UnsafeRawBufferPointer, on session: WebSocketSession) {
        guard !session.closing else { return }
        var buffer = Array(bytes)
        while !session.closing {
            let message: WebSocketMessage?
            do {
                message = try session.decoder.decode(buffer: &buffer)
            } catch {
                stats.webSocketErrors += 1
                if error.closeCode == .messageTooBig { stats.oversizedFrame += 1 }
                log(LogEvent(level: .info, message: "websocket \(session.connection.remoteAddress) closed: \(error)"))
                return session.close(error.closeCode, reason: "\(error)")
            }
            guard let message else { return }
            received(message, on: session)
        }
    }

    private func received(_ message: WebSocketMessage, on session: WebSocketSession) {
        guard let peer = peers[.tcp(ObjectIdentifier(session.connection))] else { return }
        switch message {
        case .binary(let packet):
            stats.packetsReceived += 1
            packet.withUnsafeBytes { receivePacket($0, peer: peer, source: .tcp(session.connection)) }
        case .text(let text):
            command(text, from: peer, on: session)
        case .ping(let payload):
            session.send(.pong(payload))
        case .pong:
            break
        case .close(let code, _):
            // Answer with the same code (RFC 6455 section 5.5.1), then close.
            session.close(code ?? .normalClosure, reason: "")
        }
    }

    // MARK: Commands (text frames)

    private func command(_ text: String, from peer: ServerPeer, on session: WebSocketSession) {
        stats.messagesReceived += 1
        guard peer.bucket.consume(1, now: Self.nowNanoseconds()) else {
            stats.rateLimited += 1
            return
        }
        let command: OSCQueryCommand
        do {
            command = try OSCQueryCommand(text: text)
        } catch {
            stats.webSocketBadCommands += 1
            log(LogEvent(level: .debug, message: "peer \(peer.description): \(error)"))
            return
        }
        switch command {
        case .listen(let path): listen(Self.normalized(path), peer: peer, session: session)
        case .ignore(let path): ignore(Self.normalized(path), peer: peer, session: session)
        case .startOSCStreaming(let port, _): startStreaming(port: port, peer: peer, session: session)
        }
    }

    /// The peer that gets what `session` LISTENs to: the WebSocket's own, or its UDP stream's.
    private func listener(_ peer: ServerPeer, _ session: WebSocketSession) -> ServerPeer {
        session.streamingDestination.map { self.peer(for: $0) } ?? peer
    }

    /// A path without its trailing `/` (`/knob/` is `/knob`), `/` as it is.
    static func normalized(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Whether `path` is a parameter, a container of parameters, or `/`.
    func isListenable(_ path: String) -> Bool {
        namespace.parameterIndices(listeningTo: path)?.isEmpty == false
    }

    static func listenSubscription(_ path: String) -> Subscription {
        // E5: a WebSocket client gets each path at most 120 times a second.
        Subscription(
            patternText: Subscription.listenPrefix + path, pattern: nil, interval: 1.0 / 120,
            flags: Subscription.Flag.normalized,
            isImplicit: false, listenPath: path == "/" ? nil : path)
    }

    private func listen(_ path: String, peer: ServerPeer, session: WebSocketSession) {
        guard isListenable(path) else {
            stats.webSocketBadCommands += 1
            log(
                LogEvent(
                    level: .debug, message: "peer \(peer.description) LISTENs to \(path), which is not in the tree"))
            return
        }
        let subscriber = listener(peer, session)
        let subscription = Self.listenSubscription(path)
        subscriber.subscriptions.removeAll { $0.patternText == subscription.patternText }
        if !subscriber.isSubscriber && subscribers.count >= configuration.maxPeers {
            stats.subscriberCap += 1
            return sendError(
                to: peer, address: "/sys/subscribe", reason: "too many subscribers (at most \(configuration.maxPeers))")
        }
        guard subscriber.subscriptions.count < Self.maximumListensPerPeer else {
            stats.subscriberCap += 1
            return sendError(
                to: peer, address: "/sys/subscribe", reason: "too many LISTENs (at most \(Self.maximumListensPerPeer))")
        }
        subscriber.subscriptions.append(subscription)
        subscriptionsChanged(subscriber)
        sendCurrentValues(to: subscriber.destination, peer: subscriber, only: subscription, brackets: false)
        flushDue(now: Self.now())
    }

    /// A WebSocket client may LISTEN to this many paths at once (a page LISTENs to `/`).
    static let maximumListensPerPeer = 1024

    private func ignore(_ path: String, peer: ServerPeer, session: WebSocketSession) {
        let subscriber = listener(peer, session)
        subscriber.subscriptions.removeAll { $0.patternText == Subscription.listenPrefix + path }
        subscriptionsChanged(subscriber)
    }

    /// libossia's START_OSC_STREAMING: LISTENed values go over UDP to the client's IP at `port`.
    private func startStreaming(port: UInt16, peer: ServerPeer, session: WebSocketSession) {
        let remote = session.connection.remoteAddress
        guard let address = OSCSocketAddress(numericHost: remote.host, port: port),
            configuration.allowList.contains(address)
        else { return }
        let before = listener(peer, session)
        let moved = before.subscriptions.filter { $0.isListen }
        before.subscriptions.removeAll { $0.isListen }
        subscriptionsChanged(before)
        let destination = PeerDestination.udp(address)
        session.streamingDestination = destination
        let streaming = self.peer(for: destination)
        streaming.subscriptions.removeAll { $0.isListen }
        streaming.subscriptions.append(contentsOf: moved)
        subscriptionsChanged(streaming)
        log(LogEvent(level: .info, message: "peer \(peer.description) streams its values to udp \(address)"))
    }

    /// Ends what a WebSocket peer held besides its own subscriptions: its UDP stream's.
    func webSocketPeerRemoved(_ peer: ServerPeer) {
        guard case .webSocket(let session) = peer.destination, let destination = session.streamingDestination,
            let streaming = peers[destination.id]
        else { return }
        streaming.subscriptions.removeAll { $0.isListen }
        subscriptionsChanged(streaming)
    }
}
