import Dispatch
import Locking
import OSCCore
import OSCQuery
import OSCTransport
import Parameters
import UncheckedState

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The state and logic of a server, confined to its event loop.
///
/// Everything here runs on `loop` (the sockets' handlers, the timers, and work handed over with
/// `loop.execute`), which is why the class can be `@unchecked Sendable`: no two threads ever
/// touch it at once. Local changes from other threads arrive through `localChanges`.
final class ServerCore: @unchecked Sendable {
    let loop: OSCEventLoop
    // The tree and everything indexed by its parameters: replaced together by a reload, and
    // only there (ServerCore+TreeReload.swift).
    private(set) var tree: ParameterTree
    let configuration: KnobLinkServer.Configuration
    private(set) var parameters: [Parameter]
    private(set) var addresses: [ParameterAddresses]
    /// The tree as OSCQuery serves it (PROTOCOL.md section 7), laid out once a tree, when first
    /// asked for (an HTTP request, a `LISTEN`, a reload): a server that nobody queries over
    /// OSCQuery never lays it out (0.4 MiB for 1,000 parameters).
    var namespace: OSCQueryNamespace {
        if let laidOutNamespace { return laidOutNamespace }
        let namespace = OSCQueryNamespace(tree: tree, rootPrefix: namespaceRoot)
        laidOutNamespace = namespace
        return namespace
    }
    private var laidOutNamespace: OSCQueryNamespace?
    /// The root prefix the namespace is laid out under (checked: `validatedRoot`).
    private var namespaceRoot: String
    /// How many times the tree was replaced: what a local change or touch reported from another
    /// thread carries, so that one made on a tree that is gone is dropped, not applied to
    /// whatever parameter has its index now.
    private(set) var treeGeneration = 0
    /// `tree`, for other threads (``KnobLinkServer/tree``): reading it must not wait for the loop.
    let servedTree: Locked<ParameterTree>
    let dispatcher = OSCDispatcher()
    let presets: PresetStore?
    var name: String
    /// The embedder's log handler; set from any thread.
    let logHandler = LockedHandler<LogEvent>()
    /// Told of each tree served after a reload, on the loop; set from any thread.
    let treeReloadHandler = LockedHandler<ParameterTree>()
    /// Told of the wave stream's changes of course (``KnobLinkServer/onWaveChange``).
    let waveHandler = LockedHandler<WaveState>()

    var udp: OSCUDPServer?
    var tcp: OSCTCPServer?
    /// The connections that speak HTTP (and WebSocket, after an upgrade), by connection.
    var httpSessions: [ObjectIdentifier: HTTPSession] = [:]
    /// Decodes packets up to ``smallPacketLimit`` bytes; its future bundles may hold 256 × 8 KiB.
    var receiver: OSCReceiver!
    /// Decodes larger packets (TCP frames up to 1 MiB); only 4 of its future bundles may wait, so
    /// that packets held for later cost at most a few MiB whatever peers send.
    var largeReceiver: OSCReceiver!
    static let smallPacketLimit = 8192
    var observerToken: ParameterObserverToken?
    /// The originator of every change the server makes itself: its own observer's token, so that
    /// the observer skips them (the server fans those out itself, knowing their origin).
    var originator: ParameterObserverToken

    var peers: [PeerID: ServerPeer] = [:]
    var subscribers: [ServerPeer] = []
    /// `subscribers` with their states, for the fan-out loop (see ``SubscriberEntry``).
    var subscriberEntries: [SubscriberEntry] = []
    /// Peers with values waiting to be sent.
    var waiting: [ServerPeer] = []
    /// The earliest time a waiting value is due (monotonic seconds).
    var nextDue = Double.infinity
    var timer: DispatchWorkItem?
    var timerDeadline = Double.infinity
    var sweepTimer: DispatchWorkItem?
    /// The counters, in a box: several go up for every set, and a stored property of the class
    /// paid a dynamic exclusivity check on each increment.
    private let statsStorage = UncheckedBox(ServerStatistics())
    var stats: ServerStatistics {
        _read { yield statsStorage.value }
        _modify { yield &statsStorage.value }
    }
    var builder: PacketBuilder!
    /// Values and addresses shared by every subscriber's feedback in one flush.
    private(set) var feedback: FeedbackCache
    /// The destination of the packets `builder` emits.
    var target: PeerDestination?
    var targetPeer: ServerPeer?

    /// The packet being handled, from its arrival to the end of its handling (see ``PacketContext``).
    private(set) var packet: PacketContext?
    /// The sender of the last datagram and its peer, so that a stream of packets from one peer
    /// skips the allow-list and the table lookup; cleared when any peer leaves the table.
    var lastUDPSender: OSCSocketAddress?
    /// When the last packet was handled (monotonic nanoseconds), and whether a flush of feedback
    /// is queued behind the current batch of packets.
    var lastPacketEnd: UInt64 = 0
    var flushQueued = false
    /// Whether UDP feedback waits for the end of the receive batch (set once the socket reports
    /// batch ends) instead of the gap heuristic that TCP frames still use.
    var udpBatchPending = false
    /// Packets closer than this belong to one batch.
    static let burstGapNanoseconds: UInt64 = 5_000
    var lastUDPPeer: ServerPeer?
    /// New implicit subscribers, whose current values go out once their message is handled.
    var initialValuesDue: [ServerPeer] = []
    /// How many peers in the table each host (address bytes) has sent packets from: a url whose
    /// host is here is not unheard (ServerCore+Amplification.swift).
    var heardHosts: [[UInt8]: Int] = [:]
    /// How many peers in the table are unheard, so that a new host scans them only when some are.
    var unheardPeers = 0
    /// Packets handled so far: the serial of the next ``PacketContext``.
    private var packetsHandled: UInt64 = 0
    /// The most peers tracked for rate limits and errors (subscribers always are).
    let peerTableLimit: Int
    var stopped = false

    // Extension points for the link manager and the state file (KnobLinkServer+Links.swift) and
    // the wave stream. Each gets the core as its argument and captures nothing, so that no part
    // holds the core in a closure (see ``CoreReference``).
    /// Called on the loop after every applied change, with the peer that made it (`nil`: a local
    /// change or a preset load).
    var changeObservers: [(ServerCore, _ index: Int, _ origin: ServerPeer?) -> Void] = []
    /// Sees every accepted packet before it is decoded; returning `true` consumes it (`/sys/via` bundles).
    var packetFilter: ((ServerCore, UnsafeRawBufferPointer, ServerPeer) -> Bool)?
    /// Run on the loop once the sockets are bound, and when the server stops.
    var startHandlers: [(ServerCore) -> Void] = []
    var stopHandlers: [(ServerCore) -> Void] = []
    /// The links and the state file, installed through the extension points above.
    var links: LinkRuntime?
    /// The waveform stream (ServerCore+Wave.swift).
    var wave: WaveStream?
    /// Told of every peer found gone (a closed connection, a dead UDP peer), on the loop.
    var peerRemovedHandlers: [(ServerCore, ServerPeer) -> Void] = []

    /// What the hot-path callbacks hold instead of the core (see ``CoreReference``).
    private(set) lazy var reference = CoreReference(self)

    let localChanges = Locked(LocalChanges(count: 0))
    let guardSeconds: Double

    struct LocalChanges {
        var marked: [Bool]
        var list: [Int] = []
        var scheduled = false
        /// The ``ServerCore/treeGeneration`` that `marked` and `list` index.
        var generation = 0
        init(count: Int, generation: Int = 0) {
            marked = Array(repeating: false, count: count)
            self.generation = generation
        }
    }

    init(tree: ParameterTree, configuration: KnobLinkServer.Configuration, loop: OSCEventLoop) throws {
        self.loop = loop
        self.tree = tree
        servedTree = Locked(tree)
        self.configuration = configuration
        parameters = tree.allParameters
        let root = try Self.validatedRoot(configuration.root)
        addresses = parameters.map { ParameterAddresses(parameter: $0, root: root) }
        namespaceRoot = root
        feedback = FeedbackCache(addresses: addresses)
        presets = try configuration.presetsDirectory.map { path throws(PresetStoreError) in
            try PresetStore(path: path, limits: configuration.presetLimits)
        }
        name = configuration.name ?? Self.defaultName(configuration, port: configuration.port)
        originator = ParameterObserverToken.unique()
        peerTableLimit = max(4 * configuration.maxPeers, 256)
        guardSeconds = Double(max(configuration.touchGuardMilliseconds, 0)) / 1000
        localChanges.withLock { $0 = LocalChanges(count: parameters.count) }
        let reference = reference
        builder = PacketBuilder { bytes in reference.withCore { $0.emit(bytes) } }
        let options = OSCDecodingOptions(maximumBundleDepth: configuration.maxBundleDepth)
        receiver = OSCReceiver(
            loop: loop, options: options, maximumScheduledPackets: 256,
            onError: { error, source in reference.withCore { $0.receiveFailed(error, from: source) } },
            handler: { message, _, source in reference.withCore { $0.deliver(message, from: source) } })
        largeReceiver = OSCReceiver(
            loop: loop, options: options, maximumScheduledPackets: 4,
            onError: { error, source in reference.withCore { $0.receiveFailed(error, from: source) } },
            handler: { message, _, source in reference.withCore { $0.deliver(message, from: source) } })
        dispatcher.setFallback(context: ServerRequest.self) { message, request in
            reference.withCore { $0.unknownAddress(message, request) }
        }
        links = LinkRuntime(core: self)
        // One list of the address space's methods, which a tree reload registers again.
        try registerMethods()
    }

    /// `host:port`: the bound address, or the machine's name when bound to every interface, so
    /// that instances on different machines have different names in link hop lists.
    static func defaultName(_ configuration: KnobLinkServer.Configuration, port: UInt16) -> String {
        let host = configuration.bindHost.flatMap { ["0.0.0.0", "::", ""].contains($0) ? nil : $0 }
        return "\(host ?? ProcessInfo.processInfo.hostName):\(port)"
    }

    /// `""`, or `/a/b` with valid parts and no trailing slash.
    static func validatedRoot(_ root: String) throws(KnobLinkServerError) -> String {
        guard !root.isEmpty else { return "" }
        let valid =
            root.utf8.first == UInt8(ascii: "/") && root.utf8.last != UInt8(ascii: "/")
            && (try? OSCAddressPattern(root))?.hasWildcards == false
        guard valid else { throw .invalidRoot(root) }
        return root
    }

    /// Registers a method of the core's address space: `method` gets the core (through the
    /// reference, like every callback), the message and its ``ServerRequest``.
    func register(
        _ address: String, _ method: @escaping (ServerCore, OSCMessageView, ServerRequest) -> Void
    ) throws {
        let reference = reference
        try dispatcher.register(address, context: ServerRequest.self) { message, request in
            reference.withCore { method($0, message, request) }
        }
    }

    func log(_ event: LogEvent) {
        logHandler(event)
    }

    // MARK: Clock

    static func now() -> Double { Double(ServerClock.nanoseconds()) / 1e9 }
    static func nowNanoseconds() -> UInt64 { ServerClock.nanoseconds() }

    /// The time of the packet being handled, or the clock's outside a packet.
    func currentNanoseconds() -> UInt64 { packet?.nanoseconds ?? Self.nowNanoseconds() }
    func currentSeconds() -> Double { packet?.seconds ?? Self.now() }

    // MARK: Starting and stopping

    func start() throws -> UInt16 {
        // All interfaces means IPv6 and IPv4 (a dual-stack `::` socket), falling back to IPv4 alone
        // on a machine without IPv6.
        guard configuration.bindHost == nil else { return try start(host: configuration.bindHost!) }
        do {
            return try start(host: "::")
        } catch let error as OSCSocketAddressError {
            _ = error
            return try start(host: "0.0.0.0")
        } catch let error as OSCSystemError where error.errno == EAFNOSUPPORT {
            return try start(host: "0.0.0.0")
        }
    }

    private func start(host: String) throws -> UInt16 {
        let tcpOptions = Self.tcpOptions(configuration)
        var attempt = 0
        while true {
            attempt += 1
            let udp = try OSCUDPServer(host: host, port: configuration.port, loop: loop)
            do {
                let tcp = try OSCTCPServer(
                    host: host, port: udp.localAddress.port, options: tcpOptions, loop: loop)
                self.udp = udp
                self.tcp = tcp
                break
            } catch let error as OSCSystemError where configuration.port == 0 && attempt < 20 {
                // The kernel's free UDP port may be taken for TCP: try another pair.
                _ = error
                udp.close()
            }
        }
        let port = udp!.localAddress.port
        if configuration.name == nil { name = Self.defaultName(configuration, port: port) }
        observeTree()
        let reference = reference
        // Through the reference: sockets may report a last event after the server is gone.
        udp!.start(
            { bytes, sender in reference.withCore { $0.receiveDatagram(bytes, from: sender) } },
            onBatchEnd: { reference.withCore { $0.udpBatchEnded() } },
            onDeliveryFailure: { failure in reference.withCore { $0.deliveryFailed(failure) } })
        tcp!.start(
            onFrame: { bytes, connection in reference.withCore { $0.receiveFrame(bytes, from: connection) } },
            onOtherProtocol: { connection, bytes in
                reference.withCore { $0.httpConnectionOpened(connection, bytes) }
            },
            onClose: { connection, reason in reference.withCore { $0.connectionClosed(connection, reason: reason) } })
        loop.execute { [self] in scheduleSweep() }
        for handler in startHandlers { handler(self) }
        return port
    }

    /// Follows the tree's changes made by others than the server (a local knob, the embedding
    /// application, a preset restored through the tree), and makes the observer's token the
    /// server's originator.
    func observeTree() {
        // Observers run on any thread: this one reaches the core only through the locked list
        // of local changes and the reference, on the loop.
        let changes = localChanges
        let reference = reference
        let generation = treeGeneration
        let token = tree.token(byAddingParameterObserver: { change in
            guard change.eventType == .value else {
                // A local gesture (the terminal surface, a host's UI): peers see P/touch as for
                // a remote one. A remote peer's own touch carries the server's token and has been sent.
                let (index, begins, from) = (change.parameter.index, change.eventType == .touch, change.originator)
                reference.execute { core in
                    guard core.treeGeneration == generation else { return }
                    core.localTouch(index, begins: begins, from: from)
                }
                return
            }
            Self.localChange(change.parameter.index, generation: generation, changes: changes, reference: reference)
        })
        observerToken = token
        originator = token
    }

    /// Replaces the tree and what is indexed by it; the caller has moved every peer's state over
    /// (ServerCore+TreeReload.swift).
    func replaceTree(with newTree: ParameterTree, root: String) {
        if let observerToken { tree.removeParameterObserver(observerToken) }
        observerToken = nil
        tree = newTree
        servedTree.withLock { $0 = newTree }
        parameters = newTree.allParameters
        addresses = parameters.map { ParameterAddresses(parameter: $0, root: root) }
        laidOutNamespace = nil
        namespaceRoot = root
        feedback = FeedbackCache(addresses: addresses)
        treeGeneration += 1
        let (count, generation) = (parameters.count, treeGeneration)
        localChanges.withLock { $0 = LocalChanges(count: count, generation: generation) }
        if !stopped && udp != nil { observeTree() }
    }

    /// Stops on the loop: no more input, timers cancelled, sockets closed.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if let observerToken { tree.removeParameterObserver(observerToken) }
        observerToken = nil
        for handler in stopHandlers { handler(self) }
        reference.invalidate()
        timer?.cancel()
        sweepTimer?.cancel()
        udp?.close()
        tcp?.close()
    }

    // MARK: Receiving

    func receiveDatagram(_ bytes: UnsafeRawBufferPointer, from sender: OSCSocketAddress) {
        guard !stopped else { return }
        stats.packetsReceived += 1
        let peer: ServerPeer
        if let cached = lastUDPPeer, let last = lastUDPSender, Self.sameBytes(last, sender) {
            // The same sender as the last packet: already allowed and looked up.
            peer = cached
        } else {
            guard configuration.allowList.contains(sender) else {
                stats.disallowedPeer += 1
                return
            }
            guard let found = self.peer(forUDPSender: sender) else { return }
            peer = found
            lastUDPSender = sender
            lastUDPPeer = found
        }
        udpBatchPending = true
        receivePacket(bytes, peer: peer, source: .udp(sender), batched: true)
    }

    /// The datagrams of one receive call were handled: their feedback goes out now, one packet
    /// per subscriber for the whole batch.
    func udpBatchEnded() {
        guard udpBatchPending else { return }
        udpBatchPending = false
        guard !stopped else { return }
        flushDue(now: Self.now())
    }

    /// Whether two addresses are the same bytes: then they are the same address (the converse
    /// does not hold, which only costs a lookup). Compared without allocating, unlike `==`.
    static func sameBytes(_ lhs: OSCSocketAddress, _ rhs: OSCSocketAddress) -> Bool {
        withUnsafeBytes(of: lhs) { left in withUnsafeBytes(of: rhs) { right in left.elementsEqual(right) } }
    }

    func receiveFrame(_ bytes: UnsafeRawBufferPointer, from connection: OSCTCPConnection) {
        guard !stopped else { return }
        stats.packetsReceived += 1
        guard configuration.allowList.contains(connection.remoteAddress) else {
            stats.disallowedPeer += 1
            connection.close()
            return
        }
        let id = PeerID.tcp(ObjectIdentifier(connection))
        let peer: ServerPeer
        if let known = peers[id] {
            peer = known
        } else {
            peer = addPeer(.tcp(connection), named: false)
            log(LogEvent(level: .info, message: "peer \(peer.description) connected"))
        }
        receivePacket(bytes, peer: peer, source: .tcp(connection))
    }

    func receivePacket(
        _ bytes: UnsafeRawBufferPointer, peer: ServerPeer, source: OSCPeer, batched: Bool = false
    ) {
        let start = Self.nowNanoseconds()
        // A packet that starts right after the previous one ended belongs to the same batch of
        // datagrams (read many per system call) or TCP frames: its feedback waits for the end of
        // the batch, so that a flood sends one bundle per subscriber per batch, not per packet.
        // A lone packet (the round trip of a controller) is answered at once.
        let inBurst = start &- lastPacketEnd < Self.burstGapNanoseconds
        packetsHandled &+= 1
        let context = PacketContext(
            peer: peer, source: source, nanoseconds: start, serial: packetsHandled, bytes: bytes.count)
        if !peer.isHeard { heard(peer) }
        peer.lastHeard = context.seconds
        peer.unreachableReports = 0
        let outer = packet
        packet = context
        if let packetFilter, packetFilter(self, bytes, peer) {
            // Consumed (a link's bundle).
        } else {
            (bytes.count <= Self.smallPacketLimit ? receiver : largeReceiver).receive(bytes, from: source)
        }
        packet = outer
        // A UDP batch's feedback goes out when the batch ends (udpBatchEnded).
        if batched { return }
        if inBurst || flushQueued {
            if !flushQueued && !waiting.isEmpty {
                flushQueued = true
                reference.execute { core in
                    core.flushQueued = false
                    core.flushDue(now: Self.now())
                }
            }
        } else {
            flushDue(now: Self.now())
        }
        lastPacketEnd = Self.nowNanoseconds()
    }

    func connectionClosed(_ connection: OSCTCPConnection, reason: OSCTCPCloseReason) {
        countClosedConnection(connection, reason: reason)
        httpConnectionClosed(connection)
        if let peer = peers[.tcp(ObjectIdentifier(connection))] {
            removePeer(peer, reason: "connection closed (\(reason))")
        }
    }

    /// The peer a message delivered later (a scheduled bundle) came from.
    private func peer(for source: OSCPeer) -> ServerPeer? {
        if let packet, packet.source == source { return packet.peer }
        switch source {
        case .udp(let sender): return peer(forUDPSender: sender)
        case .tcp(let connection): return connection.isClosed ? nil : peers[.tcp(ObjectIdentifier(connection))]
        }
    }

    func deliver(_ message: OSCMessageView, from source: OSCPeer) {
        // Messages delivered while a packet is handled are that packet's: no lookup needed.
        guard !stopped, let peer = packet?.peer ?? peer(for: source) else { return }
        stats.messagesReceived += 1
        guard peer.bucket.consume(1, now: currentNanoseconds()) else {
            stats.rateLimited += 1
            sendError(to: peer, address: message.address, reason: "rate limit exceeded")
            return
        }
        let request = ServerRequest(peer: peer, errorDestination: requestReplyURL(message, peer))
        do {
            try dispatcher.dispatch(message, context: request)
        } catch {
            stats.unknownAddress += 1
            sendError(about: request, address: message.address, reason: error.description)
        }
        if !initialValuesDue.isEmpty {
            let due = initialValuesDue
            initialValuesDue.removeAll()
            for subscriber in due where subscriber.isSubscriber {
                sendCurrentValues(to: subscriber.destination, peer: subscriber)
            }
        }
        if packet == nil { flushDue(now: Self.now()) }
    }

    func receiveFailed(_ error: OSCReceiveError, from source: OSCPeer) {
        guard let peer = peer(for: source) else { return }
        switch error {
        case .malformed(.bundleNestingTooDeep(let depth, _)):
            stats.tooDeep += 1
            sendError(
                to: peer, address: "", reason: "bundles nested \(depth) deep (at most \(configuration.maxBundleDepth))")
        case .malformed(let decoding):
            stats.malformed += 1
            sendError(to: peer, address: "", reason: "malformed packet: \(decoding)")
        case .schedulingRefused:
            stats.scheduleRefused += 1
            sendError(to: peer, address: "", reason: "too many bundles scheduled, or too far ahead")
        }
    }

    func unknownAddress(_ message: OSCMessageView, _ request: ServerRequest) {
        stats.unknownAddress += 1
        sendError(about: request, address: message.address, reason: "unknown address")
    }
}
