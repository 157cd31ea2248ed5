import OSCTransport

/// The links of one instance and the decisions about link traffic (PROTOCOL.md section 6,
/// rule 9.10), with no I/O: the server feeds it what arrives and sends what it returns, so every
/// rule can be tested without sockets.
///
/// Loops are prevented three ways: a value is applied and forwarded only if it changes the
/// parameter by more than ``tolerance`` (convergence); a bundle never goes back over the link it
/// came from (split horizon); and a bundle whose hop list already names this instance is
/// dropped, while one that arrives with ttl 0 is applied and not forwarded.
public struct LinkManager: Sendable {
    /// Two normalised values closer than this are equal (the tolerance of corrections).
    public static let tolerance = 1e-6

    /// One link: where this instance's changes go.
    public struct Link: Sendable, Hashable {
        /// The far instance's url, as given.
        public var url: OSCURL
        /// Its socket address; bundles from it are not sent back to it.
        public var address: OSCSocketAddress
        /// Whether this side asks the far side to link back (`/sys/link s ownUrl i 0`).
        public var twoWay: Bool
        /// Seconds between announcements while the far side is silent.
        public var announceInterval: Double
        /// When a link bundle last came from the far side (monotonic seconds), if ever.
        public var lastHeard: Double?
        /// When this side last announced itself, if ever.
        public var lastAnnounced: Double?
        /// Whether the link was given at start or by the embedding program (`--link`,
        /// ``KnobLinkServer/link(to:twoWay:)``), and so is never pruned; `false` for one a peer
        /// asked for with `/sys/link`.
        public var configured = true
        /// Failures in a row to reach the far side (refused connections, unreachable reports)
        /// since it was last heard from.
        public var failures = 0
    }

    /// How many failures in a row prune a link that a peer asked for (``Link/configured`` `false`).
    public static let pruneAfterFailures = 4

    /// This instance's name, as it appears in hop lists.
    public var name: String
    /// The links, in the order they were added.
    public private(set) var links: [Link] = []
    /// Counters for `/sys/stats`.
    public var statistics = LinkStatistics()

    /// A manager with no links.
    public init(name: String) {
        self.name = name
    }

    // MARK: - The links

    /// Adds a link, or replaces the settings of the link to the same address.
    /// - Returns: `true` if the link is new.
    @discardableResult
    public mutating func add(
        url: OSCURL, address: OSCSocketAddress, twoWay: Bool, announceInterval: Double = 30, configured: Bool = true
    ) -> Bool {
        if let index = links.firstIndex(where: { $0.address == address }) {
            links[index].url = url
            if configured { links[index].configured = true }
            // A link configured two-way stays so (with its interval) when the far side's
            // announcement asks for a one-way link back.
            if twoWay {
                links[index].twoWay = true
                links[index].announceInterval = announceInterval
            }
            return false
        }
        links.append(
            Link(
                url: url, address: address, twoWay: twoWay, announceInterval: announceInterval, lastHeard: nil,
                lastAnnounced: nil, configured: configured))
        return true
    }

    /// Whether there is a link to `address`.
    public func contains(_ address: OSCSocketAddress) -> Bool {
        links.contains { $0.address == address }
    }

    /// Counts a failure to reach the far side of the link to `address` (a refused connection,
    /// an unreachable report), and removes the link if a peer asked for it and it has now failed
    /// ``pruneAfterFailures`` times in a row.
    /// - Returns: the link if it was pruned.
    public mutating func recordFailure(to address: OSCSocketAddress) -> Link? {
        guard let index = links.firstIndex(where: { $0.address == address }) else { return nil }
        links[index].failures += 1
        guard !links[index].configured, links[index].failures >= Self.pruneAfterFailures else { return nil }
        statistics.pruned += 1
        return links.remove(at: index)
    }

    /// Clears the failures of the link to `address`: its far side was reached.
    public mutating func recordReached(_ address: OSCSocketAddress) {
        guard let index = links.firstIndex(where: { $0.address == address }) else { return }
        links[index].failures = 0
    }

    /// Removes the link to `address`.
    /// - Returns: whether there was one.
    @discardableResult
    public mutating func remove(address: OSCSocketAddress) -> Bool {
        guard let index = links.firstIndex(where: { $0.address == address }) else { return false }
        links.remove(at: index)
        return true
    }

    /// Whether values go anywhere.
    public var isEmpty: Bool { links.isEmpty }

    // MARK: - Incoming link traffic

    /// Decides what to do with a link bundle from `source`.
    ///
    /// A bundle from a linked instance counts as its answer (its two-way announcements stop).
    /// - Parameters:
    ///   - bundle: the bundle read.
    ///   - source: the datagram's source address.
    ///   - now: monotonic seconds.
    ///   - current: the current normalised value of a root-less address, or `nil` if this tree
    ///     has no writable parameter there.
    /// - Returns: the plan, or `nil` if the hop list names this instance (a loop: dropped).
    public mutating func plan(
        for bundle: LinkBundle, from source: OSCSocketAddress, now: Double, current: (String) -> Double?
    ) -> LinkPlan? {
        if let index = links.firstIndex(where: { $0.address == source }) {
            links[index].lastHeard = now
            links[index].failures = 0
        }
        guard !bundle.via.names(name) else {
            statistics.loopsDropped += 1
            return nil
        }
        statistics.bundlesReceived += 1
        statistics.valuesRefused += bundle.ignoredMessages
        // The last value for an address wins; earlier ones in the same bundle are superseded.
        var latest: [String: Int] = [:]
        for (position, value) in bundle.values.enumerated() { latest[value.address] = position }
        var apply: [LinkValue] = []
        for (position, value) in bundle.values.enumerated() where latest[value.address] == position {
            guard value.value.isFinite, let present = current(value.address) else {
                statistics.valuesRefused += 1
                continue
            }
            if Self.differs(Double(value.value), present) {
                apply.append(value)
            } else {
                statistics.valuesConverged += 1
            }
        }
        let forward = bundle.via.forwarded(by: name)
        let targets = forward == nil ? [] : links.map(\.address).filter { $0 != source }
        return LinkPlan(apply: apply, forward: forward, targets: targets)
    }

    /// Whether `incoming` changes a parameter at `present` (both normalised).
    public static func differs(_ incoming: Double, _ present: Double) -> Bool {
        abs(min(max(incoming, 0), 1) - present) > tolerance
    }

    // MARK: - Outgoing link traffic

    /// Where this instance's own changes (from a peer or a local knob) go, and their header.
    public func originating() -> (via: ViaHeader, targets: [OSCSocketAddress]) {
        (ViaHeader.originating(from: name), links.map(\.address))
    }

    /// The two-way links due for an announcement at `now`, marked as announced: those never
    /// announced, and those whose far side has sent nothing for an interval.
    public mutating func dueAnnouncements(now: Double) -> [Link] {
        var due: [Link] = []
        for index in links.indices where links[index].twoWay {
            let link = links[index]
            let silent = link.lastHeard.map { now - $0 >= link.announceInterval } ?? true
            let waited = link.lastAnnounced.map { now - $0 >= link.announceInterval } ?? true
            if silent && waited {
                links[index].lastAnnounced = now
                due.append(links[index])
            }
        }
        statistics.announcementsSent += due.count
        return due
    }

    /// The earliest time an announcement may fall due, or `nil` without two-way links.
    public func nextAnnouncement() -> Double? {
        links.filter(\.twoWay).map { link in
            max(link.lastAnnounced ?? 0, link.lastHeard ?? 0) + link.announceInterval
        }.min()
    }

    /// Marks a link as not answered, after a send to it was refused (the far side is down), so
    /// that it is announced again as soon as it is due.
    public mutating func sendFailed(to address: OSCSocketAddress) {
        statistics.sendFailures += 1
        if let index = links.firstIndex(where: { $0.address == address }) { links[index].lastHeard = nil }
    }

    /// Makes the link to `address` due for an announcement now (its connection was just opened).
    public mutating func forgetAnnouncement(to address: OSCSocketAddress) {
        guard let index = links.firstIndex(where: { $0.address == address }) else { return }
        links[index].lastAnnounced = nil
        links[index].lastHeard = nil
    }

    /// The url the far side of a link should use to reach this instance: the bind host if it
    /// is a specific address; otherwise loopback when the far side is on loopback, and the
    /// unspecified address `0.0.0.0` elsewhere, which the far side replaces with the address
    /// the announcement came from.
    public static func ownURL(bindHost: String?, port: UInt16, reaching far: OSCSocketAddress) -> OSCURL {
        if let bindHost, bindHost != "0.0.0.0", bindHost != "::", !bindHost.isEmpty {
            return OSCURL(host: bindHost, port: port)
        }
        if far.isLoopback { return OSCURL(host: far.family == .ipv4 ? "127.0.0.1" : "::1", port: port) }
        return OSCURL(host: "0.0.0.0", port: port)
    }

    /// The address named by a `/sys/link` url received from `source`: an unspecified host
    /// (`0.0.0.0`, `::`, empty) means the source's address.
    public static func address(of url: OSCURL, announcedFrom source: OSCSocketAddress?) -> OSCSocketAddress? {
        let host = url.host
        if ["0.0.0.0", "::", ""].contains(host), let source {
            var address = source
            address.port = url.port
            return address
        }
        return OSCSocketAddress(numericHost: host == "localhost" ? "127.0.0.1" : host, port: url.port)
    }
}
