import Dispatch
import Locking
import OSCCore
import OSCTransport
import Parameters

/// The engine of a ``RemoteParameterTree``: the socket, the steps of reading the tree, the
/// subscription, the keep-alive and the feedback guard.
///
/// Everything but ``shared`` belongs to ``loop`` and is touched only there (asserted with
/// `dispatchPrecondition`), so it needs no lock; the owner reads the tree, the state and the
/// counters through ``shared``.
final class RemoteSession: RemoteMirrorSession, @unchecked Sendable {
    /// What the session waits for.
    enum Phase: Equatable {
        /// Nothing: synced, lost, or closed.
        case idle
        /// `/sys/pong`: is this a KnobLink server?
        case ping
        /// The `/sys/groups` bracket.
        case groups
        /// The `/sys/list` bracket.
        case list
        /// The `P/info` answers.
        case info
        /// The subscription's current values, between `/sys/update` brackets.
        case subscribing
    }

    let url: OSCURL
    let options: RemoteTreeOptions
    let loop = OSCEventLoop(label: "KnobLink.RemoteTree")
    let shared = Locked(RemoteShared())
    private let onEvent: @Sendable (RemoteTreeEvent) -> Void
    /// The P/info requests sent together, and how many a second at most (well inside the
    /// server's 2000 messages a second per peer).
    private static let infoBatch = 100
    private static let infoBatchInterval = DispatchTimeInterval.milliseconds(100)

    private var target: OSCSocketAddress?
    private var udp: OSCUDPServer?
    private var tcp: OSCTCPConnection?
    private var connecting = false
    /// `[s url]` of the requests that take one: this socket's URL over UDP, nothing over TCP
    /// (replies come back on the connection).
    private var replyArguments: [OSCArgument] = []
    private var subscribeURL = ""
    private var phase = Phase.idle
    private var listing: RemoteListing
    private var inBracket = false
    private var infosSent = 0
    private var infosAnswered = 0
    private var phaseTimer: DispatchWorkItem?
    private var heardSincePhase = false
    private var lastError: String?
    private var lastHeard = DispatchTime.now()
    private var lastMessagesReceived: Int?
    private var subscriptionAnswered = false
    private var statsAnswered = false
    private var firstSync: (@Sendable (Result<ParameterTree, RemoteTreeError>) -> Void)?
    private var closed = false

    private var binding: MirrorBinding!
    private var tree: ParameterTree? { binding.tree }
    private var addresses: [String] = []
    private var indexByAddress: [String: Int] = [:]
    /// The overview frame being received.
    private var waveFrame: RemoteWaveFrame?

    init(url: OSCURL, options: RemoteTreeOptions, onEvent: @escaping @Sendable (RemoteTreeEvent) -> Void) {
        self.url = url
        self.options = options
        self.onEvent = onEvent
        listing = RemoteListing(maximumNodes: options.maximumNodes)
        binding = MirrorBinding(
            loop: loop, feedbackGuard: options.feedbackGuard,
            applied: { [unowned self] in shared.withLock { $0.statistics.valuesApplied += 1 } },
            onChange: { [unowned self] binding, change in localChange(change, binding) })
    }

    private var label: String { url.description }

    // MARK: Starting and stopping

    /// Opens the socket and reads the tree; `completion` gets the tree or the first error, on the loop.
    func start(_ completion: @escaping @Sendable (Result<ParameterTree, RemoteTreeError>) -> Void) {
        loop.execute { [self] in
            firstSync = completion
            do throws(RemoteTreeError) {
                let addresses: [OSCSocketAddress]
                do {
                    addresses = try url.resolve()
                } catch {
                    throw .invalidURL(label, reason: "\(error)")
                }
                guard let first = addresses.first else { throw .invalidURL(label, reason: "the host does not resolve") }
                target = first
                switch url.transport {
                case .udp: try openUDP(first)
                case .tcp: connectTCP()
                }
            } catch {
                finishFirstSync(.failure(error))
            }
        }
    }

    /// Stops everything: no packet is sent or applied after this returns.
    func close() {
        if loop.inEventLoop { closeOnLoop() } else { loop.queue.sync { closeOnLoop() } }
    }

    private func closeOnLoop() {
        guard !closed else { return }
        closed = true
        phaseTimer?.cancel()
        binding.stopObserving()
        udp?.close()
        tcp?.close()
        udp = nil
        tcp = nil
    }

    private func openUDP(_ target: OSCSocketAddress) throws(RemoteTreeError) {
        let socket: OSCUDPServer
        let host: String
        do {
            socket = try OSCUDPServer(host: target.family == .ipv4 ? "0.0.0.0" : "::", port: 0, loop: loop)
            host = try Self.replyHost(for: target)
        } catch {
            throw .unreachable(label, reason: "could not open a UDP socket: \(error)")
        }
        udp = socket
        let own = OSCURL(transport: .udp, host: host, port: socket.localAddress.port).description
        replyArguments = [.string(own)]
        subscribeURL = own
        socket.start { [weak self] bytes, sender in
            guard let self, sender == target else { return }
            self.receive(bytes)
        }
        beginSync()
    }

    private func connectTCP() {
        guard let target, !connecting, !closed else { return }
        connecting = true
        replyArguments = []
        subscribeURL = OSCURL(transport: .tcp, address: target).description
        let loop = self.loop
        let timeout = options.timeout
        Task { [weak self] in
            let result: Result<OSCTCPConnection, OSCSystemError>
            do throws(OSCSystemError) {
                result = .success(
                    try await OSCTCPClient.connect(
                        to: target, framing: .lengthPrefix, loop: loop, timeout: timeout,
                        onFrame: { [weak self] bytes, _ in self?.receive(bytes) },
                        onClose: { [weak self] connection, reason in self?.connectionClosed(connection, reason) }))
            } catch {
                result = .failure(error)
            }
            loop.execute { [weak self] in self?.connected(result) }
        }
    }

    private func connected(_ result: Result<OSCTCPConnection, OSCSystemError>) {
        connecting = false
        switch result {
        case .success(let connection):
            guard !closed else { return connection.close() }
            tcp = connection
            lastHeard = .now()
            beginSync()
        case .failure(let error):
            if firstSync != nil { finishFirstSync(.failure(.unreachable(label, reason: "\(error)"))) }
        }
    }

    private func connectionClosed(_ connection: OSCTCPConnection, _ reason: OSCTCPCloseReason) {
        guard connection === tcp, !closed else { return }
        tcp = nil
        guard firstSync == nil else { return finishFirstSync(.failure(.connectionClosed(label))) }
        becomeLost()
    }

    // MARK: Reading the tree

    private func beginSync() {
        guard !closed else { return }
        listing = RemoteListing(maximumNodes: options.maximumNodes)
        lastMessagesReceived = nil
        inBracket = false
        lastError = nil
        if firstSync == nil {
            setState(.resyncing)
            shared.withLock { $0.statistics.resyncs += 1 }
        }
        enter(.ping)
        send(OSCMessage("/sys/ping", replyArguments))
    }

    private func enter(_ next: Phase, extraTime: Double = 0) {
        phase = next
        heardSincePhase = false
        phaseTimer?.cancel()
        guard next != .idle else { return }
        let seconds = Self.seconds(options.timeout) + extraTime
        phaseTimer = loop.schedule(at: .now() + .nanoseconds(Int(seconds * 1e9))) { [weak self] in
            self?.phaseTimedOut(next)
        }
    }

    private func phaseTimedOut(_ timed: Phase) {
        guard phase == timed, !closed else { return }
        let seconds = Self.seconds(options.timeout)
        let error: RemoteTreeError
        let undecodable = shared.withLock { $0.statistics.undecodable }
        switch timed {
        case .ping:
            if let lastError {
                error = .notKnobLink(label, reason: "/sys/ping was answered with /sys/error: \(lastError)")
            } else if undecodable > 0 {
                error = .notKnobLink(label, reason: "it sent \(undecodable) packets that are not OSC")
            } else if heardSincePhase {
                error = .notKnobLink(label, reason: "it sent OSC, but no /sys/pong")
            } else {
                error = .noAnswer(label, seconds: seconds)
            }
        case .groups, .list:
            let request = timed == .groups ? "/sys/groups" : "/sys/list"
            if let lastError {
                error = .notKnobLink(label, reason: "\(request) was answered with /sys/error: \(lastError)")
            } else {
                error = .incompleteList(
                    label, reason: inBracket ? "\(request)'s bracket did not close" : "no answer to \(request)")
            }
        case .info:
            error = .incompleteList(
                label, reason: "\(infosAnswered) of \(listing.entries.count) parameter descriptions (P/info) came")
        case .subscribing:
            error = .incompleteList(label, reason: "the subscription's current values, or /sys/stats, did not come")
        case .idle:
            return
        }
        failSync(error)
    }

    private func failSync(_ error: RemoteTreeError) {
        enter(.idle)
        if firstSync != nil { return finishFirstSync(.failure(error)) }
        becomeLost()
    }

    private func finishFirstSync(_ result: Result<ParameterTree, RemoteTreeError>) {
        guard let completion = firstSync else { return }
        firstSync = nil
        if case .failure = result { closeOnLoop() } else { scheduleKeepAlive() }
        completion(result)
    }

    /// Handles one message while the tree is being read; returns `false` for messages that are
    /// not part of the reading (values, keep-alive answers).
    private func syncStep(_ message: OSCMessage) -> Bool {
        if message.address == "/sys/update", message.arguments.count == 1, case .int32(let flag) = message.arguments[0]
        {
            inBracket = flag != 0
            guard !inBracket else { return true }
            switch phase {
            case .groups:
                enter(.list)
                send(OSCMessage("/sys/list", replyArguments))
            case .list: requestInfos()
            case .info: finishInfosIfDone()
            case .subscribing:
                subscriptionAnswered = true
                finishSyncIfDone()
            case .idle, .ping: break
            }
            return true
        }
        do throws(RemoteListingError) {
            switch (phase, message.address) {
            case (.ping, "/sys/pong"):
                if case .string(let name)? = message.arguments.first { shared.withLock { $0.serverName = name } }
                enter(.groups)
                send(OSCMessage("/sys/groups", replyArguments))
            case (.groups, "/sys/group"): try listing.addGroup(message)
            case (.list, "/sys/param"): try listing.addParameter(message)
            case (.info, _) where message.address.hasSuffix("/info"):
                if try listing.addInfo(message) { infosAnswered += 1 }
                finishInfosIfDone()
            case (_, "/sys/error"):
                if phase == .info, infoRefused(message) { return true }
                lastError = Self.errorText(message)
            default:
                return false
            }
        } catch {
            failSync(
                error.isTooLarge
                    ? .invalidList(label, reason: error.description) : .notKnobLink(label, reason: error.description))
        }
        return true
    }

    /// A server that refuses `P/info` (an older or other server) still gets mirrored, with
    /// linear knobs: the refusal counts as the answer.
    private func infoRefused(_ message: OSCMessage) -> Bool {
        guard case .string(let address)? = message.arguments.first, address.hasSuffix("/info"),
            listing.index(of: String(address.dropLast(5))) != nil
        else { return false }
        infosAnswered += 1
        finishInfosIfDone()
        return true
    }

    private func requestInfos() {
        infosSent = 0
        infosAnswered = 0
        enter(.info, extraTime: Double(listing.entries.count) / 1000)
        sendInfoBatch()
    }

    private func sendInfoBatch() {
        guard phase == .info, !closed else { return }
        let end = min(infosSent + Self.infoBatch, listing.entries.count)
        var messages: [OSCPacket] = []
        for entry in listing.entries[infosSent..<end] {
            messages.append(.message(OSCMessage(entry.address + "/info", replyArguments)))
            // Bundles of 32 requests stay near a kilobyte each.
            if messages.count == 32 {
                send(.bundle(OSCBundle(messages)))
                messages = []
            }
        }
        if !messages.isEmpty { send(.bundle(OSCBundle(messages))) }
        infosSent = end
        if infosSent < listing.entries.count {
            loop.schedule(at: .now() + Self.infoBatchInterval) { [weak self] in self?.sendInfoBatch() }
        }
        finishInfosIfDone()
    }

    private func finishInfosIfDone() {
        guard phase == .info, !inBracket, infosAnswered >= listing.entries.count else { return }
        let specs: [ParameterNodeSpec]
        let built: ParameterTree
        do {
            specs = try listing.specs()
            if let tree, tree.specs == specs {
                built = tree
            } else {
                built = try ParameterTree(children: specs)
            }
        } catch {
            return failSync(.invalidList(label, reason: "\(error)"))
        }
        install(built)
        for (index, entry) in listing.entries.enumerated() {
            binding.applyNow(index, entry.value)
        }
        enter(.subscribing)
        subscriptionAnswered = false
        statsAnswered = false
        // The keep-alive's baseline comes first, and the reading ends only once it is there: a
        // restart any time after the subscription then shows as a smaller count. (A restart
        // between the two gives a baseline of the old server: one needless reading later.)
        send(OSCMessage("/sys/stats", replyArguments))
        send(
            OSCMessage(
                "/sys/subscribe",
                [.string(subscribeURL), .string(""), .float32(Float(options.maximumRate)), .int32(Self.rawValues)]))
        // The waveform: peak bars scaled to the loudest (flags 0), the state burst at once.
        send(
            OSCMessage(
                "/wave/sub",
                [
                    .string(subscribeURL), .int32(Int32(RemoteWave.barCount)), .float32(RemoteWave.progressRate),
                    .int32(0),
                ]))
    }

    /// Subscription flag 4: values in the parameters' own units (`P/raw f`), the same units as
    /// `/sys/list` and the mirror's sets, so that no taper conversion stands between them.
    private static let rawValues: Int32 = 4

    private func install(_ built: ParameterTree) {
        if binding.install(built) {
            shared.withLock { $0.tree = built }
            onEvent(.treeReplaced(built))
        } else {
            shared.withLock { $0.tree = built }
        }
        addresses = listing.entries.map(\.address)
        indexByAddress = Dictionary(addresses.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func finishSyncIfDone() {
        guard phase == .subscribing, subscriptionAnswered, statsAnswered else { return }
        enter(.idle)
        setState(.synced)
        if let tree { finishFirstSync(.success(tree)) }
    }

    // MARK: Receiving

    private func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !closed else { return }
        guard let packet = try? OSCPacket.decode(bytes) else {
            shared.withLock { $0.statistics.undecodable += 1 }
            return
        }
        lastHeard = .now()
        heardSincePhase = true
        if phase == .idle, shared.withLock({ $0.state }) == .lost {
            // The server answers again: whatever it is now, read it anew.
            return beginSync()
        }
        for message in packet.allMessages where !closed {
            if phase != .idle, syncStep(message) { continue }
            if message.address == "/sys/stats" {
                statsArrived(message)
            } else if message.address.hasPrefix("/wave/") {
                waveArrived(message)
            } else if phase == .idle || phase == .subscribing {
                valueArrived(message)
            }
        }
    }

    // MARK: The waveform

    /// `/wave/info`, `/wave/bars`, `/wave/progress`, `/wave/playing` of the subscription.
    private func waveArrived(_ message: OSCMessage) {
        var wave = shared.withLock { $0.wave } ?? RemoteWave()
        guard wave.take(message, frame: &waveFrame) else { return }
        shared.withLock { $0.wave = wave }
        onEvent(.waveChanged)
    }

    /// Plays or pauses the server's stream (`/wave/play`, `/wave/pause`).
    func setWavePlaying(_ playing: Bool) {
        loop.execute { [self] in
            guard !closed else { return }
            send(OSCMessage(playing ? "/wave/play" : "/wave/pause"))
        }
    }

    /// Seeks the server's stream (`/wave/progress f`); the server does not echo a visualiser's
    /// own seek (E2), so the mirror takes it at once.
    func seekWave(to progress: Double) {
        let progress = progress.isNaN ? 0 : min(1, max(0, progress))
        loop.execute { [self] in
            guard !closed else { return }
            send(OSCMessage("/wave/progress", [.float32(Float(progress))]))
            shared.withLock { $0.wave?.progress = progress }
            onEvent(.waveChanged)
        }
    }

    private func valueArrived(_ message: OSCMessage) {
        guard tree != nil, message.arguments.count == 1, let number = OSCArgument.number(message.arguments[0]) else {
            return
        }
        if message.address.hasSuffix("/raw"), let index = indexByAddress[String(message.address.dropLast(4))] {
            binding.apply(index, number)
        } else if let index = indexByAddress[message.address], let tree {
            binding.apply(index, tree.allParameters[index].denormalize(Double(number)))
        }
    }

    // MARK: Sending

    /// A change made to the local tree by anyone but the mirror: sent to the server as
    /// `P/raw f` or `P/touch i`.
    private func localChange(_ change: ParameterChange, _ binding: MirrorBinding) {
        // A change of a tree replaced since it was queued, or made while the server is away, is
        // not sent: the tree is read again from the server when it is back.
        guard !closed, shared.withLock({ $0.state }) != .lost, let outgoing = binding.outgoing(for: change) else {
            return
        }
        switch outgoing {
        case .value(let index, let value):
            send(OSCMessage(addresses[index] + "/raw", [.float32(value)]))
            shared.withLock { $0.statistics.valuesSent += 1 }
        case .touch(let index, let begins):
            send(OSCMessage(addresses[index] + "/touch", [.int32(begins ? 1 : 0)]))
            shared.withLock { $0.statistics.touchesSent += 1 }
        }
    }

    private func send(_ message: OSCMessage) {
        send(.message(message))
    }

    private func send(_ packet: OSCPacket) {
        if let tcp {
            tcp.send(packet.encoded())
        } else if let udp, let target {
            // A full send buffer drops the datagram, as the network may: the keep-alive and
            // the phase timeouts recover from either.
            _ = try? udp.send(packet.encoded(), to: target)
        }
    }

    // MARK: Keep-alive and restarts

    private func scheduleKeepAlive() {
        loop.schedule(at: .now() + .nanoseconds(Int(Self.seconds(options.keepAliveInterval) * 1e9))) {
            [weak self] in
            self?.keepAlive()
        }
    }

    private func keepAlive() {
        guard !closed else { return }
        defer { scheduleKeepAlive() }
        let silent = Double(DispatchTime.now().uptimeNanoseconds - lastHeard.uptimeNanoseconds) / 1e9
        if silent > Self.seconds(options.lostAfter), shared.withLock({ $0.state }) != .lost {
            becomeLost()
        }
        if url.transport == .tcp, tcp == nil {
            return connectTCP()
        }
        send(OSCMessage("/sys/stats", replyArguments))
    }

    /// `/sys/stats`'s `messagesReceived` only grows while a server runs: a smaller number is a
    /// new server on the same port, which has no subscription and maybe another tree.
    private func statsArrived(_ message: OSCMessage) {
        defer {
            statsAnswered = true
            finishSyncIfDone()
        }
        var arguments = message.arguments[...]
        while arguments.count >= 2 {
            let name = arguments.removeFirst()
            let value = arguments.removeFirst()
            guard case .string("messagesReceived") = name, case .int32(let count) = value else { continue }
            if let last = lastMessagesReceived, Int(count) < last, phase == .idle {
                return beginSync()
            }
            // While the tree is read, the count is the new baseline, whatever it was before.
            lastMessagesReceived = Int(count)
        }
    }

    private func becomeLost() {
        enter(.idle)
        binding.forgetTouches()
        setState(.lost)
    }

    private func setState(_ state: RemoteTreeState) {
        if shared.change(to: state) { onEvent(.stateChanged(state)) }
    }

    // MARK: Helpers

    private static func errorText(_ message: OSCMessage) -> String {
        message.arguments.compactMap { argument -> String? in
            if case .string(let text) = argument { return text }
            return nil
        }.joined(separator: ": ")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The host of the reply URL: the loopback address for a loopback server, else the local
    /// address the kernel picks for the route to it (a connected UDP socket sends nothing).
    private static func replyHost(for target: OSCSocketAddress) throws -> String {
        if target.isLoopback { return target.family == .ipv4 ? "127.0.0.1" : "::1" }
        let probe = try OSCUDPClient(remote: target, loop: OSCEventLoop(label: "KnobLink.RemoteTree.route"))
        defer { probe.close() }
        return probe.localAddress.host
    }
}

extension RemoteListingError {
    fileprivate var isTooLarge: Bool {
        if case .tooLarge = self { return true }
        return false
    }
}
