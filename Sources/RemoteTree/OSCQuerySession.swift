import Dispatch
import HTTPCore
import Locking
import OSCCore
import OSCQuery
import OSCTransport
import Parameters

/// The engine of a ``RemoteParameterTree`` that reads an OSCQuery server: `GET /?HOST_INFO`,
/// `GET /`, and the WebSocket on which values come (`LISTEN`) and go.
///
/// The steps:
///
/// 1. `GET /?HOST_INFO`: the server's name, its OSC port and its extensions. A server without
///    it is still read, without a way to send values other than the WebSocket.
/// 2. `GET /`: the namespace, made into a tree (``OSCQueryListing``).
/// 3. When the server lists `LISTEN`: a WebSocket on `/`, one `LISTEN` for `/` where the server
///    lists `LISTEN_CONTAINER` (KnobLink) or one for each parameter; values come as binary OSC
///    frames and local changes go back the same way. A KnobLink server (`LISTEN_CONTAINER`)
///    also gets `P/touch` for gestures and a `/wave/sub` for its waveform.
///    Without `LISTEN`, local changes go over UDP to `OSC_PORT`, and the namespace is read again
///    every ``RemoteTreeOptions/keepAliveInterval`` for the server's values.
///
/// A closed WebSocket, a server that does not answer a ping or a poll for
/// ``RemoteTreeOptions/lostAfter``, makes the mirror ``RemoteTreeState/lost``; every keep-alive
/// interval it then tries the steps again. `PATH_ADDED`, `PATH_REMOVED`, `PATH_RENAMED` and
/// `PATH_CHANGED` read the namespace again; a tree of the same shape keeps its object.
///
/// Everything but ``shared`` belongs to ``loop``.
final class OSCQuerySession: RemoteMirrorSession, @unchecked Sendable {
    let host: String
    let port: UInt16
    let options: RemoteTreeOptions
    let loop = OSCEventLoop(label: "KnobLink.RemoteTree.OSCQuery")
    let shared = Locked(RemoteShared())
    private let onEvent: @Sendable (RemoteTreeEvent) -> Void
    private let label: String
    /// The namespace's JSON may be as deep as the tree's 16 levels of containers, each two JSON levels.
    private static let parser = OSCQueryJSONParser(
        maximumSize: HTTPResponseParser.defaultMaximumBodyLength, maximumDepth: 2 * ParameterTree.maximumDepth + 8)

    private var target: OSCSocketAddress?
    private var hostInfo = HostInfo()
    private var listing: OSCQueryListing?
    private var indexByPath: [String: Int] = [:]
    /// The first value read of each path: its default, the same in every reading.
    private var defaults: [String: Float] = [:]
    private var binding: MirrorBinding!
    private var webSocket: OSCTCPConnection?
    private var frames = WebSocketFrameDecoder(role: .client)
    private var udp: OSCUDPClient?
    private var syncing = false
    private var lastHeard = DispatchTime.now()
    private var firstSync: (@Sendable (Result<ParameterTree, RemoteTreeError>) -> Void)?
    private var closed = false
    private var waveFrame: RemoteWaveFrame?
    /// Counts the readings, so that the answers of an abandoned one are dropped.
    private var generation = 0
    /// While a KnobLink server's answer to `LISTEN "/"` (the current value of every parameter) is
    /// still coming: the parameters not heard yet. The sync finishes when it is empty.
    private var snapshotAwaited: Set<Int>?
    /// How long the sync waits for that answer before it finishes without the rest of it.
    private static let snapshotTimeout = 1.0

    /// What `GET /?HOST_INFO` said.
    struct HostInfo {
        var name = ""
        var extensions: Set<String> = []
        var oscPort: UInt16?
        var oscHost: String?
        var listens: Bool { extensions.contains("LISTEN") }
        /// KnobLink's own extension: its LISTEN of a container, its touch and waveform.
        var isKnobLink: Bool { extensions.contains("LISTEN_CONTAINER") }
    }

    init(host: String, port: UInt16, options: RemoteTreeOptions, onEvent: @escaping @Sendable (RemoteTreeEvent) -> Void)
    {
        self.host = host
        self.port = port
        self.options = options
        self.onEvent = onEvent
        label = RemoteServer.oscQuery(host: host, port: port).description
        binding = MirrorBinding(
            loop: loop, feedbackGuard: options.feedbackGuard,
            applied: { [unowned self] in shared.withLock { $0.statistics.valuesApplied += 1 } },
            onChange: { [unowned self] binding, change in localChange(change, binding) })
    }

    // MARK: Starting and stopping

    func start(_ completion: @escaping @Sendable (Result<ParameterTree, RemoteTreeError>) -> Void) {
        loop.execute { [self] in
            firstSync = completion
            do {
                guard let first = try OSCSocketAddress.resolve(host: host, port: port).first else {
                    return finishFirstSync(.failure(.invalidURL(label, reason: "the host does not resolve")))
                }
                target = first
            } catch {
                return finishFirstSync(.failure(.invalidURL(label, reason: "\(error)")))
            }
            beginSync()
        }
    }

    func close() {
        if loop.inEventLoop { closeOnLoop() } else { loop.queue.sync { closeOnLoop() } }
    }

    private func closeOnLoop() {
        guard !closed else { return }
        closed = true
        binding.stopObserving()
        dropWebSocket()
        udp?.close()
        udp = nil
    }

    func setWavePlaying(_ playing: Bool) {
        loop.execute { [self] in
            guard !closed, hostInfo.isKnobLink else { return }
            send(OSCMessage(playing ? "/wave/play" : "/wave/pause"))
        }
    }

    func seekWave(to progress: Double) {
        let progress = progress.isNaN ? 0 : min(1, max(0, progress))
        loop.execute { [self] in
            guard !closed, hostInfo.isKnobLink else { return }
            send(OSCMessage("/wave/progress", [.float32(Float(progress))]))
            shared.withLock { $0.wave?.progress = progress }
            onEvent(.waveChanged)
        }
    }

    // MARK: Reading the server

    private func beginSync() {
        guard !closed, !syncing else { return }
        syncing = true
        generation += 1
        snapshotAwaited = nil
        let reading = generation
        get("/?HOST_INFO") { [self] result in
            guard reading == generation else { return }
            // A server that is away stays lost until it answers: then the reading begins.
            if firstSync == nil, case .success = result {
                setState(.resyncing)
                shared.withLock { $0.statistics.resyncs += 1 }
            }
            switch result {
            case .success(let response) where response.status == 200:
                do throws(RemoteTreeError) {
                    hostInfo = try readHostInfo(response.body)
                } catch {
                    return failSync(error)
                }
            case .success:
                // No HOST_INFO: read the namespace anyway, with nothing known of the server.
                hostInfo = HostInfo()
            case .failure(let error):
                return failSync(error)
            }
            if hostInfo.name.isEmpty { hostInfo.name = "\(host):\(port)" }
            let (name, offersWave) = (hostInfo.name, hostInfo.isKnobLink)
            shared.withLock {
                $0.serverName = name
                $0.offersWave = offersWave
            }
            readNamespace { [self] error in
                guard reading == generation else { return }
                if let error { return failSync(error) }
                if hostInfo.listens { openWebSocket(reading) } else { finishSync() }
            }
        }
    }

    private func readHostInfo(_ body: [UInt8]) throws(RemoteTreeError) -> HostInfo {
        let json: OSCQueryJSON
        do {
            json = try Self.parser.parse(body)
        } catch {
            throw .notOSCQuery(label, reason: "its HOST_INFO is not JSON: \(error)")
        }
        guard case .object = json else { throw .notOSCQuery(label, reason: "its HOST_INFO is not a JSON object") }
        var info = HostInfo()
        info.name = String((json["NAME"]?.stringValue ?? "").prefix(ParameterTree.maximumNameLength))
        if case .object(let members)? = json["EXTENSIONS"] {
            for (key, value) in members.prefix(256) where value == .bool(true) { info.extensions.insert(key) }
        }
        if let port = json["OSC_PORT"]?.integerValue, let value = UInt16(exactly: port), value != 0 {
            let transport = json["OSC_TRANSPORT"]?.stringValue ?? "UDP"
            if transport.uppercased() == "UDP" { info.oscPort = value }
        }
        if let address = json["OSC_IP"]?.stringValue, !address.isEmpty, address != "0.0.0.0", address != "::" {
            info.oscHost = address
        }
        return info
    }

    /// `GET /`, made into the tree; `done` gets `nil` once the tree is installed.
    private func readNamespace(_ done: @escaping (RemoteTreeError?) -> Void) {
        get("/") { [self] result in
            switch result {
            case .failure(let error): return done(error)
            case .success(let response):
                guard response.status == 200 else {
                    return done(
                        .notOSCQuery(label, reason: "GET / was answered with \(response.status) \(response.reason)"))
                }
                do throws(RemoteTreeError) {
                    try install(response.body)
                    done(nil)
                } catch {
                    done(error)
                }
            }
        }
    }

    private func install(_ body: [UInt8]) throws(RemoteTreeError) {
        let namespace: OSCQueryJSON
        do {
            namespace = try Self.parser.parse(body)
        } catch {
            throw .notOSCQuery(label, reason: "its namespace is not JSON: \(error)")
        }
        let read: OSCQueryListing
        let built: ParameterTree
        do {
            read = try OSCQueryListing(
                namespace: namespace, maximumNodes: options.maximumNodes, usesUnits: !hostInfo.isKnobLink,
                defaults: defaults)
            for (path, entry) in zip(read.paths, read.listing.entries) where defaults[path] == nil {
                if defaults.count < options.maximumNodes { defaults[path] = entry.defaultValue }
            }
            let specs = try read.listing.specs()
            if let tree = binding.tree, tree.specs == specs {
                built = tree
            } else {
                built = try ParameterTree(children: specs)
            }
        } catch {
            throw .invalidList(label, reason: "\(error)")
        }
        let structureChanged = listing?.paths != read.paths
        listing = read
        if structureChanged || built !== binding.tree {
            indexByPath = Dictionary(read.paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let replaced = binding.install(built)
            shared.withLock { $0.tree = built }
            if replaced { onEvent(.treeReplaced(built)) }
        }
        for (index, entry) in read.listing.entries.enumerated() {
            binding.apply(index, entry.value)
        }
        lastHeard = .now()
    }

    private func openWebSocket(_ reading: Int) {
        guard let target else { return }
        let handshake = WebSocketClientHandshake()
        let loop = self.loop
        let timeout = options.timeout
        let state = HandshakeState()
        Task { [weak self] in
            let result: Result<OSCTCPConnection, OSCSystemError>
            do throws(OSCSystemError) {
                result = .success(
                    try await OSCTCPClient.connectRaw(
                        to: target, loop: loop, timeout: timeout,
                        onBytes: { [weak self] bytes in self?.webSocketBytes(bytes, state: state, handshake: handshake)
                        },
                        onClose: { [weak self] connection, _ in self?.webSocketClosed(connection) }))
            } catch {
                result = .failure(error)
            }
            loop.execute { [weak self] in
                guard let self, reading == generation, !closed else {
                    if case .success(let connection) = result { connection.close() }
                    return
                }
                switch result {
                case .failure(let error): failSync(.unreachable(label, reason: "the WebSocket: \(error)"))
                case .success(let connection):
                    webSocket = connection
                    frames = WebSocketFrameDecoder(role: .client)
                    connection.write(handshake.request(target: "/", host: hostHeader))
                    scheduleTimeout(reading, "the WebSocket handshake")
                    state.onOpen = { [weak self] in self?.webSocketOpened(reading) }
                }
            }
        }
    }

    /// The bytes of the WebSocket connection: first the 101, then frames.
    private final class HandshakeState: @unchecked Sendable {
        var parser = HTTPResponseParser()
        var buffer: [UInt8] = []
        var open = false
        var onOpen: (() -> Void)?
    }

    private func webSocketBytes(
        _ bytes: UnsafeRawBufferPointer, state: HandshakeState, handshake: WebSocketClientHandshake
    ) {
        guard !closed, let connection = webSocket else { return }
        state.buffer.append(contentsOf: bytes)
        if !state.open {
            do {
                guard let response = try state.parser.decode(buffer: &state.buffer) else { return }
                try handshake.check(response)
            } catch {
                // failSync closes the connection, once it is no longer the session's: its close
                // handler must not report a closed connection in place of this error.
                return failSync(.notOSCQuery(label, reason: "its WebSocket handshake failed: \(error)"))
            }
            state.open = true
            state.onOpen?()
        }
        lastHeard = .now()
        do {
            while let message = try frames.decode(buffer: &state.buffer) {
                webSocketMessage(message, on: connection)
                if closed || webSocket !== connection { return }
            }
        } catch {
            connection.write(Self.masked(.close(code: error.closeCode, reason: "")))
            connection.closeAfterWriting()
        }
    }

    private func webSocketOpened(_ reading: Int) {
        guard reading == generation, !closed, let listing else { return }
        if hostInfo.isKnobLink {
            sendCommand("LISTEN", "/")
            send(
                OSCMessage(
                    "/wave/sub",
                    [.string(""), .int32(Int32(RemoteWave.barCount)), .float32(RemoteWave.progressRate), .int32(0)]))
            // The server answers the LISTEN with every current value, read before any change sent
            // after it; the sync waits for them. A change made before they came would be held by
            // the feedback guard, and the older value applied once the hold ended, while the
            // server, which never echoes a change to its sender, kept the newer one.
            guard !listing.paths.isEmpty else { return finishSync() }
            snapshotAwaited = Set(listing.paths.indices)
            loop.schedule(at: .now() + .nanoseconds(Int(Self.snapshotTimeout * 1e9))) { [weak self] in
                guard let self, reading == generation, snapshotAwaited != nil, !closed else { return }
                snapshotAwaited = nil
                finishSync()
            }
            return
        }
        for path in listing.paths { sendCommand("LISTEN", path) }
        finishSync()
    }

    private func webSocketMessage(_ message: WebSocketMessage, on connection: OSCTCPConnection) {
        switch message {
        case .binary(let bytes):
            guard let packet = try? OSCPacket.decode(bytes) else {
                shared.withLock { $0.statistics.undecodable += 1 }
                return
            }
            for message in packet.allMessages { oscArrived(message) }
        case .text(let text):
            // PATH_ADDED, PATH_REMOVED, PATH_RENAMED, PATH_CHANGED: read the namespace again.
            guard text.contains("\"PATH_"), !syncing else { return }
            readNamespace { [weak self] error in
                guard let self, let error, !closed else { return }
                failSync(error)
            }
        case .ping(let payload):
            connection.write(Self.masked(.pong(payload)))
        case .pong:
            break
        case .close(let code, _):
            connection.write(Self.masked(.close(code: code, reason: "")))
            connection.closeAfterWriting()
        }
    }

    private func oscArrived(_ message: OSCMessage) {
        if message.address.hasPrefix("/wave/") {
            var wave = shared.withLock { $0.wave } ?? RemoteWave()
            guard wave.take(message, frame: &waveFrame) else { return }
            shared.withLock { $0.wave = wave }
            return onEvent(.waveChanged)
        }
        guard let index = indexByPath[message.address], let value = message.arguments.first.flatMap(OSCArgument.number)
        else { return }
        binding.apply(index, value)
        if var awaited = snapshotAwaited {
            awaited.remove(index)
            snapshotAwaited = awaited.isEmpty ? nil : awaited
            if awaited.isEmpty { finishSync() }
        }
    }

    private func webSocketClosed(_ connection: OSCTCPConnection) {
        guard connection === webSocket, !closed else { return }
        webSocket = nil
        if syncing { return failSync(.connectionClosed(label)) }
        becomeLost()
    }

    private func finishSync() {
        syncing = false
        lastHeard = .now()
        if !hostInfo.listens, let oscPort = hostInfo.oscPort, udp == nil {
            let oscHost = hostInfo.oscHost ?? host
            if let address = try? OSCSocketAddress.resolve(host: oscHost, port: oscPort).first {
                udp = try? OSCUDPClient(remote: address, loop: loop)
            }
        }
        setState(.synced)
        if let completion = firstSync, let tree = binding.tree {
            firstSync = nil
            scheduleKeepAlive()
            completion(.success(tree))
        }
    }

    private func failSync(_ error: RemoteTreeError) {
        snapshotAwaited = nil
        syncing = false
        generation += 1
        dropWebSocket()
        if firstSync != nil { return finishFirstSync(.failure(error)) }
        becomeLost()
    }

    private func finishFirstSync(_ result: Result<ParameterTree, RemoteTreeError>) {
        guard let completion = firstSync else { return }
        firstSync = nil
        if case .failure = result { closeOnLoop() }
        completion(result)
    }

    private func scheduleTimeout(_ reading: Int, _ step: String) {
        let seconds = RemoteSession.seconds(options.timeout)
        loop.schedule(at: .now() + .nanoseconds(Int(seconds * 1e9))) { [weak self] in
            guard let self, reading == generation, syncing, !closed else { return }
            failSync(.noAnswer(label + " (\(step))", seconds: seconds))
        }
    }

    // MARK: HTTP

    private var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }

    /// One `GET` on a connection of its own; `done` runs on the loop, once.
    private func get(_ path: String, _ done: @escaping (Result<HTTPReceivedResponse, RemoteTreeError>) -> Void) {
        guard let target else { return }
        let loop = self.loop
        let timeout = options.timeout
        let label = self.label
        let exchange = Exchange(done)
        let request = Array(
            "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nAccept: application/json\r\nConnection: close\r\n\r\n".utf8)
        let seconds = RemoteSession.seconds(timeout)
        loop.schedule(at: .now() + .nanoseconds(Int(seconds * 1e9))) {
            exchange.finish(.failure(.noAnswer("\(label) (GET \(path))", seconds: seconds)))
        }
        Task {
            do throws(OSCSystemError) {
                let connection = try await OSCTCPClient.connectRaw(
                    to: target, loop: loop, timeout: timeout,
                    onBytes: { bytes in
                        exchange.buffer.append(contentsOf: bytes)
                        do {
                            if let response = try exchange.parser.decode(buffer: &exchange.buffer) {
                                exchange.finish(.success(response))
                            }
                        } catch {
                            exchange.finish(.failure(.notOSCQuery(label, reason: "GET \(path): \(error)")))
                        }
                    },
                    onClose: { _, _ in
                        do {
                            guard let response = try exchange.parser.finish(buffer: &exchange.buffer) else {
                                return exchange.finish(.failure(.connectionClosed(label)))
                            }
                            exchange.finish(.success(response))
                        } catch {
                            exchange.finish(.failure(.notOSCQuery(label, reason: "GET \(path): \(error)")))
                        }
                    })
                loop.execute {
                    exchange.connection = connection
                    if exchange.isDone { connection.close() } else { connection.write(request) }
                }
            } catch {
                loop.execute { exchange.finish(.failure(.unreachable(label, reason: "\(error)"))) }
            }
        }
    }

    /// One GET's state, on the loop.
    private final class Exchange: @unchecked Sendable {
        var parser = HTTPResponseParser()
        var buffer: [UInt8] = []
        var connection: OSCTCPConnection?
        private(set) var isDone = false
        private var done: ((Result<HTTPReceivedResponse, RemoteTreeError>) -> Void)?

        init(_ done: @escaping (Result<HTTPReceivedResponse, RemoteTreeError>) -> Void) {
            self.done = done
        }

        func finish(_ result: Result<HTTPReceivedResponse, RemoteTreeError>) {
            guard !isDone else { return }
            isDone = true
            connection?.close()
            let done = self.done
            self.done = nil
            done?(result)
        }
    }

    // MARK: Sending

    private func localChange(_ change: ParameterChange, _ binding: MirrorBinding) {
        guard !closed, shared.withLock({ $0.state }) != .lost, let listing,
            let outgoing = binding.outgoing(for: change)
        else { return }
        switch outgoing {
        case .value(let index, let value):
            let argument: OSCArgument =
                switch listing.types[index] {
                case .float: .float32(value)
                case .int: .int32(Int32(clamping: Int(value.rounded())))
                case .boolean: value >= 0.5 ? .true : .false
                }
            send(OSCMessage(listing.paths[index], [argument]))
            shared.withLock { $0.statistics.valuesSent += 1 }
        case .touch(let index, let begins):
            guard hostInfo.isKnobLink else { return }
            send(OSCMessage(listing.paths[index] + "/touch", [.int32(begins ? 1 : 0)]))
            shared.withLock { $0.statistics.touchesSent += 1 }
        }
    }

    private func send(_ message: OSCMessage) {
        let bytes = OSCPacket.message(message).encoded()
        if let webSocket {
            webSocket.write(Self.masked(.binary(bytes)))
        } else if let udp {
            _ = try? udp.send(bytes)
        }
    }

    private func sendCommand(_ command: String, _ path: String) {
        let text = OSCQueryJSON.object([("COMMAND", .string(command)), ("DATA", .string(path))]).text
        webSocket?.write(Self.masked(.text(text)))
    }

    /// A client's frame: masked with a fresh key (RFC 6455 section 5.3).
    private static func masked(_ message: WebSocketMessage) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let key = (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return WebSocketFrameEncoder.masked(WebSocketFrameEncoder().encode(message), key: key)
    }

    // MARK: Keep-alive

    private func scheduleKeepAlive() {
        let seconds = RemoteSession.seconds(options.keepAliveInterval)
        loop.schedule(at: .now() + .nanoseconds(Int(seconds * 1e9))) { [weak self] in self?.keepAlive() }
    }

    private func keepAlive() {
        guard !closed else { return }
        defer { scheduleKeepAlive() }
        let silent = Double(DispatchTime.now().uptimeNanoseconds - lastHeard.uptimeNanoseconds) / 1e9
        let state = shared.withLock { $0.state }
        if state == .lost {
            return beginSync()
        }
        if silent > RemoteSession.seconds(options.lostAfter), !syncing {
            dropWebSocket()
            return becomeLost()
        }
        guard !syncing else { return }
        if let webSocket {
            webSocket.write(Self.masked(.ping([])))
        } else {
            // No LISTEN: the namespace is the only way to hear the server's values.
            // A failed poll is silence: lostAfter decides.
            readNamespace { _ in }
        }
    }

    /// Forgets the WebSocket, then closes it: its close handler then sees a connection that is
    /// no longer the session's and reports nothing.
    private func dropWebSocket() {
        let connection = webSocket
        webSocket = nil
        connection?.close()
    }

    private func becomeLost() {
        binding.forgetTouches()
        setState(.lost)
    }

    private func setState(_ state: RemoteTreeState) {
        if shared.change(to: state) { onEvent(.stateChanged(state)) }
    }
}
