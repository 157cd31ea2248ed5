import OSCCore
import Parameters

extension ServerCore {
    /// Most subscriptions (distinct patterns) one url may hold, so that the table stays bounded.
    static let maximumSubscriptionsPerPeer = 16

    func registerSystemMethods() throws {
        try register("/sys/subscribe") { $0.subscribeMessage($1, $2) }
        try register("/sys/unsubscribe") { $0.unsubscribeMessage($1, $2) }
        try register("/sys/refresh") { $0.refreshMessage($1, $2) }
        try register("/sys/list") { $0.listMessage($1, $2) }
        try register("/sys/groups") { $0.groupsMessage($1, $2) }
        try register("/sys/ping") { $0.pingMessage($1, $2) }
        try register("/sys/stats") { $0.statsMessage($1, $2) }
        try register("/sys/preset/save") { $0.presetMessage($1, $2, action: .save) }
        try register("/sys/preset/load") { $0.presetMessage($1, $2, action: .load) }
        try register("/sys/preset/delete") { $0.presetMessage($1, $2, action: .delete) }
        try register("/sys/preset/list") { $0.presetListMessage($1, $2) }
        try register("/sys/tree/reload") { $0.treeReloadMessage($1, $2) }
    }

    // MARK: Subscriptions

    private func subscribeMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        let peer = request.peer
        guard let url = message.string(at: 0) else {
            return refuse(message, request, "expected s url [s pattern] [f maxHz] [i flags]")
        }
        var patternText = ""
        if message.argumentCount > 1 {
            guard let text = message.string(at: 1) else {
                return refuse(message, request, "the pattern must be a string")
            }
            patternText = text
        }
        var maxHz = 30.0
        if message.argumentCount > 2 {
            guard let hz = message.double(at: 2), hz.isFinite, hz >= 0 else {
                return refuse(message, request, "maxHz must be a number, 0 or more")
            }
            maxHz = hz
        }
        var flags = Subscription.Flag.normalized
        if message.argumentCount > 3 {
            guard let given = message.int32(at: 3) else { return refuse(message, request, "flags must be an integer") }
            flags = UInt8(truncatingIfNeeded: given) & Subscription.Flag.all
            if flags & (Subscription.Flag.normalized | Subscription.Flag.strings | Subscription.Flag.raw) == 0 {
                flags |= Subscription.Flag.normalized
            }
        }
        var pattern: OSCAddressPattern?
        if !patternText.isEmpty {
            do {
                pattern = try OSCAddressPattern(patternText)
            } catch {
                return refuse(message, request, "bad pattern: \(error.description)")
            }
        }
        guard let destination = replyDestination(message, request) else { return }
        let subscriber = self.peer(for: destination)
        guard sponsor(subscriber, by: peer, message) else { return }
        if !subscriber.isSubscriber && subscribers.count >= configuration.maxPeers {
            stats.subscriberCap += 1
            return sendError(
                about: request, address: "/sys/subscribe",
                reason: "too many subscribers (at most \(configuration.maxPeers))")
        }
        // Rule 9.7: an explicit subscription replaces the implicit one; rule 9.8: the same pattern
        // again replaces its settings.
        subscriber.subscriptions.removeAll { $0.isImplicit || $0.patternText == patternText }
        guard subscriber.subscriptions.count < Self.maximumSubscriptionsPerPeer else {
            stats.subscriberCap += 1
            return sendError(about: request, address: "/sys/subscribe", reason: "too many subscriptions for \(url)")
        }
        let subscription = Subscription(
            patternText: patternText, pattern: pattern, interval: maxHz > 0 ? min(1 / maxHz, 3600) : 0, flags: flags,
            isImplicit: false)
        let wasSubscriber = subscriber.isSubscriber
        subscriber.subscriptions.append(subscription)
        subscriptionsChanged(subscriber)
        if !wasSubscriber {
            log(LogEvent(level: .info, message: "peer \(subscriber.description) subscribed"))
        }
        sendCurrentValues(to: destination, peer: subscriber, only: subscription)
    }

    private func unsubscribeMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let url = message.string(at: 0) else { return refuse(message, request, "expected s url [s pattern]") }
        _ = url
        var patternText: String?
        if message.argumentCount > 1 {
            guard let text = message.string(at: 1) else {
                return refuse(message, request, "the pattern must be a string")
            }
            patternText = text
        }
        guard let destination = replyDestination(message, request), let subscriber = peers[destination.id] else {
            return
        }
        if let patternText {
            subscriber.subscriptions.removeAll { $0.patternText == patternText && !$0.isImplicit }
        } else {
            subscriber.subscriptions.removeAll()
        }
        subscriptionsChanged(subscriber)
        if !subscriber.isSubscriber {
            log(LogEvent(level: .info, message: "peer \(subscriber.description) unsubscribed"))
        }
    }

    private func refreshMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let destination = replyDestination(message, request) else { return }
        let entity = peers[destination.id]
        sendCurrentValues(to: destination, peer: entity?.isSubscriber == true ? entity : nil)
    }

    // MARK: Information

    private func listMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let destination = replyDestination(message, request) else { return }
        beginPackets(to: destination, peer: peers[destination.id])
        builder.append(OSCMessage("/sys/update", [.int32(1)]))
        for (index, parameter) in parameters.enumerated() {
            builder.append(
                OSCMessage(
                    "/sys/param",
                    [
                        .string(addresses[index].value), .string(parameter.displayName),
                        .string(Self.unitText(parameter)),
                        .float32(parameter.minValue), .float32(parameter.maxValue),
                        .float32(parameter.defaultValue), .float32(parameter.value),
                    ]))
        }
        builder.append(OSCMessage("/sys/update", [.int32(0)]))
        endPackets()
    }

    /// `/sys/group s address s displayName` for every group, in tree order, between update
    /// brackets (PROTOCOL.md section 3): what a remote surface titles its sections with.
    private func groupsMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let destination = replyDestination(message, request) else { return }
        beginPackets(to: destination, peer: peers[destination.id])
        builder.append(OSCMessage("/sys/update", [.int32(1)]))
        for group in tree.allGroups {
            let address = namespace.rootPrefix + "/" + group.keyPath.split(separator: ".").joined(separator: "/")
            builder.append(OSCMessage("/sys/group", [.string(address), .string(group.displayName)]))
        }
        builder.append(OSCMessage("/sys/update", [.int32(0)]))
        endPackets()
    }

    private func pingMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let destination = replyDestination(message, request) else { return }
        send(
            OSCMessage("/sys/pong", [.string(name), .string(KnobLinkServer.version)]), to: destination,
            peer: peers[destination.id])
    }

    private func statsMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let destination = replyDestination(message, request) else { return }
        let entries = statisticsEntries()
        // Rule 9.14: as many pairs a message as fit in a datagram.
        beginPackets(to: destination, peer: peers[destination.id])
        var arguments: [OSCArgument] = []
        var size = 24
        for (name, value) in entries {
            let cost = (name.utf8.count / 4 + 1) * 4 + 4 + 2
            if size + cost > destination.datagramLimit - 64, !arguments.isEmpty {
                builder.append(OSCMessage("/sys/stats", arguments))
                arguments = []
                size = 24
            }
            arguments.append(.string(name))
            arguments.append(.int32(Int32(clamping: value)))
            size += cost
        }
        builder.append(OSCMessage("/sys/stats", arguments))
        endPackets()
    }

    /// The counters, and the current numbers of peers, subscribers and connections.
    func statisticsEntries() -> [(name: String, value: Int)] {
        var entries = stats.entries
        entries.append(("peers", peers.count))
        entries.append(("subscribers", subscribers.count))
        entries.append(("tcpConnections", tcp?.openConnections.count ?? 0))
        entries.append(("tcpRefused", tcp?.refusedConnections ?? 0))
        entries.append(contentsOf: tcpStatisticsEntries())
        entries.append(("udpSendsWouldBlock", udp?.statistics.sendsWouldBlock ?? 0))
        entries.append(("udpTruncated", udp?.statistics.truncated ?? 0))
        entries.append(("udpReceiveErrors", udp?.statistics.receiveErrors ?? 0))
        entries.append(contentsOf: linkStatisticsEntries())
        entries.append(contentsOf: waveStatisticsEntries())
        return entries
    }

    // MARK: Presets

    enum PresetAction {
        case save, load, delete
    }

    private func presetMessage(_ message: OSCMessageView, _ request: ServerRequest, action: PresetAction) {
        guard let name = message.string(at: 0) else { return refuse(message, request, "expected s name") }
        guard let presets else {
            stats.presetErrors += 1
            return sendError(about: request, address: message.address, reason: "no presets directory")
        }
        do throws(PresetStoreError) {
            switch action {
            case .save:
                try presets.save(tree, as: name)
            case .delete:
                try presets.delete(name)
            case .load:
                let preset = try presets.preset(named: name)
                let before = tree.snapshotValues()
                tree.restore(preset, originator: originator)
                let after = tree.snapshotValues()
                // Rule 9.15: a load is echoed to every subscriber, the requester included.
                for index in parameters.indices where before[index] != after[index] {
                    changed(index, origin: nil)
                }
            }
        } catch {
            stats.presetErrors += 1
            if case .limitReached = error { stats.presetLimited += 1 }
            sendError(about: request, address: message.address, reason: error.description)
        }
    }

    private func presetListMessage(_ message: OSCMessageView, _ request: ServerRequest) {
        guard let destination = replyDestination(message, request) else { return }
        guard let presets else {
            stats.presetErrors += 1
            return sendError(about: request, address: message.address, reason: "no presets directory")
        }
        let names: [String]
        do {
            names = try presets.list()
        } catch {
            stats.presetErrors += 1
            return sendError(about: request, address: message.address, reason: error.description)
        }
        beginPackets(to: destination, peer: peers[destination.id])
        builder.append(OSCMessage("/sys/update", [.int32(1)]))
        for name in names { builder.append(OSCMessage("/sys/preset", [.string(name)])) }
        builder.append(OSCMessage("/sys/update", [.int32(0)]))
        endPackets()
    }

    /// Records that `requester` subscribed `subscriber`'s url, unless that would give the
    /// requester's host more than ``maximumURLsPerHost`` urls other than its own (then sends the
    /// error and returns `false`).
    private func sponsor(_ subscriber: ServerPeer, by requester: ServerPeer, _ message: OSCMessageView) -> Bool {
        guard subscriber !== requester else { return true }
        guard let host = hostAdmittingURL(from: requester, sponsor: subscriber.sponsorHost, message) else {
            return false
        }
        subscriber.sponsorHost = host
        return true
    }

    private func refuse(_ message: OSCMessageView, _ request: ServerRequest, _ reason: String) {
        stats.badArguments += 1
        sendError(about: request, address: message.address, reason: reason)
    }
}
