import Dispatch
import OSCCore
import OSCTransport
import Parameters

/// The server side of links and of the state file: feeds link traffic to the ``LinkManager``,
/// applies and forwards what it decides, forwards the server's own changes, announces two-way
/// links, and keeps `--state` in step.
///
/// Confined to the server's event loop like ``ServerCore`` (hence unchecked `Sendable`). It hooks
/// into the server through the core's extension points (change observers, the packet filter,
/// start and stop handlers) and the `/sys/link` and `/sys/unlink` methods, and beyond them uses
/// the core's internals directly: its UDP socket to send link traffic, its parameters and
/// `changed(_:)` to apply values, its counters, its log, the current packet's source, and
/// `connectionClosed` for TCP links.
final class LinkRuntime: @unchecked Sendable {
    unowned let core: ServerCore
    var manager: LinkManager
    /// Replaced by a tree reload, like the index below.
    private(set) var stateFile: StateFile?
    /// Parameter index by address without the root (link traffic carries no root, rule 9.9).
    private var indexByAddress: [String: Int]
    /// The server's own changes waiting to be forwarded, by parameter index.
    private var pending: [Bool]
    private var pendingList: [Int] = []
    private var flushScheduled = false
    /// Set while values from a link are applied, so that they are not forwarded as our own.
    private var applying = false
    /// Rate limits of link traffic by source address (rule 9.11), apart from the peers' own: an
    /// instance sends from its server port, which says nothing about the peer at its IP.
    private var buckets: [OSCSocketAddress: TokenBucket] = [:]
    private static let maximumBuckets = 256
    /// Links reached over TCP (`osc.tcp://` urls), by the far side's address: those this side
    /// connects to (`outbound`) and those whose far side connected here and asked for a link.
    private var tcpLinks: Set<OSCSocketAddress> = []
    private var outbound: Set<OSCSocketAddress> = []
    private var connections: [OSCSocketAddress: OSCTCPConnection] = [:]
    private var connecting: Set<OSCSocketAddress> = []
    /// Failed connection attempts in a row, by address: the next one waits 0.25 s × 2ⁿ, up to 30 s.
    private var failedAttempts: [OSCSocketAddress: Int] = [:]
    private var announceTimer: DispatchWorkItem?
    private var announceDeadline = Double.infinity

    init(core: ServerCore) {
        self.core = core
        manager = LinkManager(name: core.name)
        var index: [String: Int] = [:]
        for (position, parameter) in core.parameters.enumerated() { index[parameter.oscAddress] = position }
        indexByAddress = index
        pending = Array(repeating: false, count: core.parameters.count)
        stateFile = core.configuration.stateFile.map { Self.stateFile(at: $0, of: core) }
        // Like every part of the core, the runtime is reached from callbacks through the core
        // (``CoreReference``): these closures capture nothing.
        core.changeObservers.append { core, index, _ in core.links?.changed(index) }
        core.packetFilter = { core, bytes, peer in core.links?.receive(bytes, peer: peer) ?? false }
        core.startHandlers.append { $0.links?.start() }
        core.stopHandlers.append { $0.links?.stop() }
    }

    /// `/sys/link` and `/sys/unlink`, registered with the rest of the address space
    /// (``ServerCore/registerMethods()``: at start and after a tree reload).
    static func registerMethods(of core: ServerCore) throws {
        try core.register("/sys/link") { $0.links?.linkMessage($1, $2) }
        try core.register("/sys/unlink") { $0.links?.unlinkMessage($1, $2) }
    }

    /// Re-indexes the parameters after a tree reload (``ServerCore/reloadTree(_:)``): changes
    /// waiting for the links go out first, by address, so that none is lost or misread; the
    /// state file follows the new tree.
    func treeWillChange() {
        flushChanges()
    }

    func treeDidChange() {
        var index: [String: Int] = [:]
        for (position, parameter) in core.parameters.enumerated() { index[parameter.oscAddress] = position }
        indexByAddress = index
        pending = Array(repeating: false, count: core.parameters.count)
        guard let old = stateFile else { return }
        do {
            try old.stop()
        } catch {
            core.log(LogEvent(level: .error, message: error.description))
        }
        let file = Self.stateFile(at: old.url.path, of: core)
        stateFile = file
        file.start()
        // The file holds the old tree's values until the next change: write the new tree's now.
        file.noteChange()
    }

    /// The state file of `core`'s tree. It writes on a queue of its own and reaches only the
    /// (thread-safe) log.
    private static func stateFile(at path: String, of core: ServerCore) -> StateFile {
        let log = core.logHandler
        return StateFile(path: path, tree: core.tree) { error in
            log(LogEvent(level: .error, message: error.description))
        }
    }

    // MARK: Starting and stopping

    private func start() {
        manager.name = core.name
        loadState()
        for link in core.configuration.links {
            do {
                try add(link.url, twoWay: link.twoWay, announceInterval: link.announceInterval, from: nil)
            } catch {
                core.log(LogEvent(level: .error, message: "link \(link.url): \(error)"))
            }
        }
        announce()
    }

    private func stop() {
        announceTimer?.cancel()
        announceTimer = nil
        for address in outbound { connections[address]?.close() }
        do {
            try stateFile?.stop()
        } catch {
            core.log(LogEvent(level: .error, message: error.description))
        }
    }

    private func loadState() {
        guard let stateFile else { return }
        do {
            if let report = try stateFile.load(originator: core.originator) {
                for issue in report.issues {
                    core.log(LogEvent(level: .warning, message: "state file entry skipped: \(issue)"))
                }
                core.log(LogEvent(level: .info, message: "state restored from \(stateFile.url.path)"))
            }
        } catch {
            core.log(LogEvent(level: .warning, message: error.description))
        }
        for path in stateFile.removedTemporaries {
            core.log(LogEvent(level: .info, message: "removed \(path), left by an interrupted write"))
        }
        stateFile.start()
    }

    // MARK: The links

    /// Adds a link; `peer` is where a `/sys/link` came from (its address stands for an
    /// unspecified host), `nil` for a link of the configuration or the embedding program.
    ///
    /// A peer's link must name an address of the allow list, and no link is added beyond
    /// `maxLinks` (PROTOCOL.md section 8): the far sides of a few hundred links would take every
    /// descriptor (TCP) or make each change a flood of datagrams (UDP).
    func add(
        _ url: OSCURL, twoWay: Bool, announceInterval: Double = 30, from peer: OSCPeer?
    ) throws(KnobLinkServerError) {
        let source = peer?.address
        if url.transport == .tcp, case .tcp(let connection) = peer {
            // As for subscriptions, an osc.tcp url sent on a TCP connection names that connection.
            let address = connection.remoteAddress
            try admitNewLink(url, address: address)
            tcpLinks.insert(address)
            connections[address] = connection
            if manager.add(
                url: url, address: address, twoWay: twoWay, announceInterval: announceInterval, configured: false)
            {
                core.log(LogEvent(level: .info, message: "linked to \(connection)\(twoWay ? " (two-way)" : "")"))
            }
            if twoWay { announce() }
            return
        }
        let address: OSCSocketAddress
        if let numeric = LinkManager.address(of: url, announcedFrom: source) {
            address = numeric
        } else if source == nil, let resolved = try? url.resolve().first {
            // Only for links the embedding program gives (configuration, link(to:)), never for a
            // peer's /sys/link: a name lookup on the loop would stall every peer.
            address = resolved
        } else {
            throw .invalidURL(url.description, reason: "the host must be a numeric address or localhost")
        }
        if let own = core.udp?.localAddress, address == own || (address.isLoopback && address.port == own.port) {
            throw .invalidURL(url.description, reason: "an instance cannot link to itself")
        }
        if peer != nil, !core.configuration.allowList.contains(address) {
            manager.statistics.disallowed += 1
            throw .invalidURL(url.description, reason: "its address is outside the server's --allow list")
        }
        try admitNewLink(url, address: address)
        if url.transport == .tcp {
            tcpLinks.insert(address)
            outbound.insert(address)
        }
        if manager.add(
            url: url, address: address, twoWay: twoWay, announceInterval: announceInterval, configured: peer == nil)
        {
            core.log(LogEvent(level: .info, message: "linked to \(url)\(twoWay ? " (two-way)" : "")"))
        }
        if url.transport == .tcp { connect(address) }
        if twoWay { announce() }
    }

    /// Refuses a link to a new address when `maxLinks` are there already.
    private func admitNewLink(_ url: OSCURL, address: OSCSocketAddress) throws(KnobLinkServerError) {
        let limit = core.configuration.maxLinks
        guard !manager.contains(address), manager.links.count >= limit else { return }
        manager.statistics.refused += 1
        throw .tooManyLinks(url.description, limit: limit)
    }

    /// Counts a failure to reach a link's far side, and prunes a peer's link that keeps failing.
    /// - Returns: whether the link was pruned.
    @discardableResult
    private func failed(_ address: OSCSocketAddress, because why: String) -> Bool {
        guard let link = manager.recordFailure(to: address) else { return false }
        forgetConnection(address)
        core.log(
            LogEvent(
                level: .warning,
                message: "link to \(link.url) removed: \(why) \(link.failures) times in a row"))
        return true
    }

    /// A UDP datagram to `destination` was reported unreachable (ICMP); called by the server.
    /// On a dual-stack socket the report names an IPv4 link by its mapped address (`::ffff:…`).
    func deliveryFailed(to destination: OSCSocketAddress) {
        let host = destination.host.hasPrefix("::ffff:") ? String(destination.host.dropFirst(7)) : destination.host
        guard
            let address = manager.links.first(where: {
                $0.address == destination || ($0.address.port == destination.port && $0.address.host == host)
            })?.address, !tcpLinks.contains(address)
        else { return }
        failed(address, because: "unreachable")
    }

    private func linkMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let text = message.string(at: 0) else {
            return core.sendError(about: request, address: message.address, reason: "expected s url [i mode]")
        }
        let mode = message.argumentCount > 1 ? message.double(at: 1) : 0
        guard let mode, mode == 0 || mode == 1 else {
            return core.sendError(
                about: request, address: message.address, reason: "mode must be 0 (one-way) or 1 (two-way)")
        }
        do throws(KnobLinkServerError) {
            try add(try Self.parse(text), twoWay: mode == 1, from: core.packet?.source)
        } catch {
            core.sendError(about: request, address: message.address, reason: error.description)
        }
    }

    /// A url argument, with the server's error text when it is not one.
    private static func parse(_ text: String) throws(KnobLinkServerError) -> OSCURL {
        do {
            return try OSCURL.parse(text)
        } catch {
            guard case .invalidURL(_, let reason) = error else { throw .invalidURL(text, reason: "\(error)") }
            throw .invalidURL(text, reason: reason)
        }
    }

    private func unlinkMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let text = message.string(at: 0), let url = try? Self.parse(text),
            let address = LinkManager.address(of: url, announcedFrom: core.packet?.source.address)
        else {
            return core.sendError(
                about: request, address: message.address, reason: "expected s url (osc.udp://host:port/)")
        }
        if manager.remove(address: address) {
            forgetConnection(address)
            core.log(LogEvent(level: .info, message: "unlinked from \(url)"))
        } else {
            core.sendError(about: request, address: message.address, reason: "no link to \(url)")
        }
    }

    // MARK: Announcing two-way links

    /// Sends `/sys/link s ownUrl i 0` to the two-way links that are due, and arms the timer.
    private func announce() {
        guard !core.stopped, let udp = core.udp else { return }
        let now = ServerCore.now()
        for link in manager.dueAnnouncements(now: now) {
            var own = LinkManager.ownURL(
                bindHost: core.configuration.bindHost, port: udp.localAddress.port, reaching: link.address)
            if tcpLinks.contains(link.address) { own.transport = .tcp }
            let bytes = OSCPacket.message(OSCMessage("/sys/link", [.string(own.description), .int32(0)])).encoded()
            send(bytes, to: link.address)
        }
        armAnnounceTimer()
    }

    private func armAnnounceTimer() {
        guard let next = manager.nextAnnouncement(), next < announceDeadline || announceTimer == nil else { return }
        announceTimer?.cancel()
        announceDeadline = next
        let delay = max(next - ServerCore.now(), 0.001)
        announceTimer = core.loop.schedule(at: Deadline.after(seconds: delay)) { [reference = core.reference] in
            reference.withCore { core in
                guard !core.stopped, let runtime = core.links else { return }
                runtime.announceTimer = nil
                runtime.announceDeadline = .infinity
                runtime.announce()
            }
        }
    }

    // MARK: Sending

    private func send(_ bytes: [UInt8], to address: OSCSocketAddress) {
        if tcpLinks.contains(address) { return sendTCP(bytes, to: address) }
        guard let udp = core.udp else { return }
        core.stats.packetsSent += 1
        do {
            try udp.send(bytes, to: address)
        } catch {
            core.stats.sendFailures += 1
            manager.sendFailed(to: address)
            if failed(address, because: "sends failed") { return }
            armAnnounceTimer()
        }
    }

    private func send(_ bundle: LinkBundle, to targets: [OSCSocketAddress]) {
        for target in targets {
            for datagram in bundle.datagrams(limit: target.isLoopback ? 8192 : 1472) {
                manager.statistics.bundlesSent += 1
                send(datagram, to: target)
            }
        }
    }

    // MARK: TCP links

    private func sendTCP(_ bytes: [UInt8], to address: OSCSocketAddress) {
        if let connection = connections[address], !connection.isClosed {
            core.stats.packetsSent += 1
            connection.send(bytes)
            return
        }
        connections[address] = nil
        manager.sendFailed(to: address)
        if outbound.contains(address) {
            connect(address)
        } else {
            // The far side's own connection is gone; it links again when it comes back.
            manager.remove(address: address)
            tcpLinks.remove(address)
        }
    }

    /// Opens the connection of an outbound TCP link, on the server's loop; what the far side
    /// sends on it is handled like any TCP peer's frames (link bundles included).
    private func connect(_ address: OSCSocketAddress) {
        guard outbound.contains(address), !connecting.contains(address), connections[address] == nil,
            !core.stopped
        else { return }
        connecting.insert(address)
        let reference = core.reference
        let loop = core.loop
        // Every step after the await reaches the runtime through the core's reference: a server
        // that stopped meanwhile is not touched, and the connection is closed.
        Task {
            do {
                let connection = try await OSCTCPClient.connect(
                    to: address, loop: loop, timeout: .seconds(5),
                    onFrame: { bytes, connection in reference.withCore { $0.receiveFrame(bytes, from: connection) } },
                    onClose: { connection, reason in
                        reference.withCore { $0.links?.closed(connection, reason: reason, address: address) }
                    })
                loop.execute {
                    var reached = false
                    reference.withCore { core in
                        reached = core.links != nil
                        core.links?.connected(connection, to: address)
                    }
                    if !reached { connection.close() }
                }
            } catch {
                reference.execute { $0.links?.connectFailed(address) }
            }
        }
    }

    private func connectFailed(_ address: OSCSocketAddress) {
        connecting.remove(address)
        manager.sendFailed(to: address)
        if failed(address, because: "could not connect") { return }
        let attempts = failedAttempts[address, default: 0]
        failedAttempts[address] = attempts + 1
        let delay = min(0.25 * Double(1 << min(attempts, 7)), 30)
        core.loop.schedule(at: Deadline.after(seconds: delay)) { [reference = core.reference] in
            reference.withCore { $0.links?.connect(address) }
        }
    }

    /// Runs on the loop when a connection this side opened closes.
    private func closed(_ connection: OSCTCPConnection, reason: OSCTCPCloseReason, address: OSCSocketAddress) {
        core.connectionClosed(connection, reason: reason)
        guard connections[address] === connection else { return }
        connections[address] = nil
        // The far side went away (or restarts): reconnect, and announce once connected.
        if !core.stopped { connect(address) }
    }

    private func connected(_ connection: OSCTCPConnection, to address: OSCSocketAddress) {
        connecting.remove(address)
        guard outbound.contains(address), !core.stopped else { return connection.close() }
        failedAttempts[address] = nil
        manager.recordReached(address)
        connections[address] = connection
        // A new connection is a new far side as far as it knows: announce at once.
        manager.forgetAnnouncement(to: address)
        announce()
    }

    private func forgetConnection(_ address: OSCSocketAddress) {
        if outbound.contains(address) { connections[address]?.close() }
        connections[address] = nil
        tcpLinks.remove(address)
        outbound.remove(address)
        failedAttempts[address] = nil
    }

    // MARK: The server's own changes

    /// Every change the server applies (a peer's, a local one, a preset's), except those from links.
    private func changed(_ index: Int) {
        guard !applying, !manager.isEmpty, !pending[index] else { return }
        pending[index] = true
        pendingList.append(index)
        guard !flushScheduled else { return }
        flushScheduled = true
        // After the packet (or the burst of packets) being handled: one bundle per link for all.
        core.reference.execute { $0.links?.flushChanges() }
    }

    private func flushChanges() {
        flushScheduled = false
        let indices = pendingList
        pendingList.removeAll(keepingCapacity: true)
        for index in indices { pending[index] = false }
        guard !core.stopped, !indices.isEmpty else { return }
        let values = indices.map { index in
            let parameter = core.parameters[index]
            return LinkValue(address: parameter.oscAddress, value: Float(parameter.normalizedValue))
        }
        let (via, targets) = manager.originating()
        send(LinkBundle(via: via, values: values), to: targets)
    }

    // MARK: Link traffic

    /// Takes one token per value from the source's bucket; the table is bounded, so a flood of
    /// forged sources costs memory only up to ``maximumBuckets``.
    private func admit(_ bundle: LinkBundle, from source: OSCSocketAddress) -> Bool {
        let now = ServerCore.nowNanoseconds()
        let rate = max(core.configuration.rateLimit, 1)
        if buckets[source] == nil {
            if buckets.count >= Self.maximumBuckets { buckets.removeAll(keepingCapacity: true) }
            buckets[source] = TokenBucket(capacity: rate, refillPerSecond: rate, now: now)
        }
        return buckets[source]!.consume(max(bundle.values.count, 1), now: now)
    }

    /// The packet filter: consumes link bundles (`/sys/via` first), applies what changes and
    /// forwards it; link traffic creates no subscription and gets no reply (rule 9.10).
    private func receive(_ bytes: UnsafeRawBufferPointer, peer _: ServerPeer) -> Bool {
        guard LinkBundle.isLinkBundle(bytes), let source = core.packet?.source.address else { return false }
        let bundle: LinkBundle
        do {
            let options = OSCDecodingOptions(maximumBundleDepth: core.configuration.maxBundleDepth)
            bundle = try LinkBundle(try OSCPacket.decode(Array(bytes), options: options))
        } catch {
            manager.statistics.malformed += 1
            return true
        }
        guard admit(bundle, from: source) else {
            core.stats.rateLimited += 1
            return true
        }
        let parameters = core.parameters
        let plan = manager.plan(for: bundle, from: source, now: ServerCore.now()) { [indexByAddress] address in
            guard let index = indexByAddress[address], parameters[index].isWritable else { return nil }
            return parameters[index].normalizedValue
        }
        guard let plan else { return true }
        var changedValues: [LinkValue] = []
        applying = true
        for value in plan.apply {
            guard let index = indexByAddress[value.address] else { continue }
            let parameter = parameters[index]
            let result = parameter.setNormalizedValue(Double(value.value), originator: core.originator)
            guard result.changed, let applied = result.appliedValue else {
                manager.statistics.valuesConverged += 1
                continue
            }
            manager.statistics.valuesApplied += 1
            // Every subscriber hears it: no peer of ours made this change (E1, E2).
            core.changed(index, origin: nil)
            changedValues.append(LinkValue(address: value.address, value: Float(parameter.normalize(applied))))
        }
        applying = false
        if let via = plan.forward, !changedValues.isEmpty, !plan.targets.isEmpty {
            send(LinkBundle(via: via, values: changedValues), to: plan.targets)
        }
        return true
    }
}
