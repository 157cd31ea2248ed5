import Dispatch
import OSCCore
import OSCTransport

extension ServerCore {
    /// ICMP "unreachable" reports for this many sends in a row, with nothing heard from the peer
    /// in between, mark a UDP peer dead (section 3): one lost or late report is not enough.
    static let deadAfterUnreachableReports = 3

    // MARK: The peer table

    /// The peer that replies to `sender` go to (rule 9.1), created if new.
    func peer(forUDPSender sender: OSCSocketAddress) -> ServerPeer? {
        var reply = sender
        if case .fixed(let port) = configuration.feedbackPort { reply.port = port }
        if let known = peers[.udp(reply)] { return known }
        return addPeer(.udp(reply), named: false)
    }

    /// A new peer in the table.
    /// - Parameter named: whether a request named it (a url), rather than its own packets.
    func addPeer(_ destination: PeerDestination, named: Bool) -> ServerPeer {
        if peers.count >= peerTableLimit { evictIdlePeer() }
        let rate = max(configuration.rateLimit, 1)
        let now = Self.nowNanoseconds()
        let peer = ServerPeer(
            destination: destination, nanoseconds: now,
            bucket: TokenBucket(capacity: rate, refillPerSecond: rate, now: now))
        peers[peer.id] = peer
        if named && startsUnheard(destination) {
            peer.isUnheard = true
            unheardPeers += 1
        }
        return peer
    }

    /// Takes `peer` out of the table (the caller says why, and ends what it held).
    private func forget(_ peer: ServerPeer) {
        peers[peer.id] = nil
        forgetCounts(of: peer)
        peer.isInTable = false
        lastUDPPeer = nil
    }

    /// Drops the peer heard from least recently that has no subscription, so that a flood of
    /// senders cannot grow the table without bound.
    private func evictIdlePeer() {
        var oldest: ServerPeer?
        for peer in peers.values where !peer.isSubscriber {
            if peer.destination.connection != nil { continue }
            if oldest == nil || peer.lastHeard < oldest!.lastHeard { oldest = peer }
        }
        if let oldest {
            forget(oldest)
            stats.peerTableEvictions += 1
        }
    }

    func removePeer(_ peer: ServerPeer, reason: String) {
        guard peers[peer.id] === peer else { return }
        forget(peer)
        if peer.isSubscriber {
            peer.subscriptions = []
            subscriptionsChanged(peer)
        }
        stopWaiting(peer)
        for handler in peerRemovedHandlers { handler(self, peer) }
        webSocketPeerRemoved(peer)
        log(LogEvent(level: .info, message: "peer \(peer.description) left: \(reason)"))
    }

    // MARK: Sending

    /// Starts a run of packets to `peer`.
    func beginPackets(to destination: PeerDestination, peer: ServerPeer?) {
        target = destination
        // A UDP destination always has its peer here, so that an unheard one is never sent
        // more than its credit (ServerCore+Amplification.swift).
        var peer = peer
        if peer == nil, case .udp = destination { peer = self.peer(for: destination) }
        if let peer, peer.isUnheard { creditUnheard(peer) }
        targetPeer = peer
        builder.begin(limit: destination.datagramLimit)
    }

    func endPackets() {
        builder.end()
        target = nil
        targetPeer = nil
    }

    /// Sends one finished packet to the current target.
    func emit(_ bytes: UnsafeRawBufferPointer) {
        guard let target else { return }
        stats.packetsSent += 1
        switch target {
        case .tcp(let connection):
            connection.send(Array(bytes))
        case .webSocket(let session):
            stats.packetsSent += session.send(packet: bytes) - 1
        case .udp(let address):
            guard let udp else { return }
            if let targetPeer, targetPeer.isUnheard, !spendCredit(targetPeer, bytes.count) { return }
            do {
                try udp.send(bytes, to: address)
            } catch {
                // Unreachable peers are reported later, through the socket's error queue.
                stats.sendFailures += 1
            }
        }
    }

    /// An ICMP report about a datagram sent to a UDP peer; the peer is pruned after
    /// ``deadAfterUnreachableReports`` of them in a row (reports for addresses that are not peers
    /// are only counted, so a burst of them grows nothing).
    func deliveryFailed(_ failure: OSCDeliveryFailure) {
        guard !stopped, failure.isUnreachable else { return }
        stats.unreachableReports += 1
        links?.deliveryFailed(to: failure.destination)
        guard let peer = peers[.udp(failure.destination)] else { return }
        peer.unreachableReports += 1
        guard peer.unreachableReports >= Self.deadAfterUnreachableReports else { return }
        stats.deadPeers += 1
        removePeer(peer, reason: failure.description)
    }

    /// Sends one message to `destination` now.
    func send(_ message: OSCMessage, to destination: PeerDestination, peer: ServerPeer?) {
        beginPackets(to: destination, peer: peer)
        builder.append(message)
        endPackets()
    }

    /// Replies to `peer`.
    func reply(_ message: OSCMessage, to peer: ServerPeer) {
        send(message, to: peer.destination, peer: peer)
    }

    /// Sends `/sys/error s address s reason`, rate-limited per peer (rule 9.2): a burst of
    /// ``ServerPeer/errorBurst``, then one a second; the first error sent after some were not
    /// ends its reason with `(N more not sent)`.
    ///
    /// An error about a request goes through ``sendError(about:address:reason:)``, which follows
    /// its reply url; this one goes to `peer` itself.
    func sendError(to peer: ServerPeer, address: @autoclosure () -> String, reason: @autoclosure () -> String) {
        // Rule 9.10: errors on link traffic are only counted.
        guard !peer.isLink else { return }
        deliverError(to: peer, address: address(), reason: reason())
    }

    /// Sends `/sys/error s address s reason` about `request`, as ``sendError(to:address:reason:)``
    /// does. An error about a request that carries a reply url goes to that url, where the
    /// requester listens (see ``requestReplyURL(_:_:)``), and counts against that url's peer:
    /// each `knoblink get` listens on a port of its own. An error that is not about the request
    /// itself (the implicit subscription it would have made was refused) goes to
    /// `request.peer` with ``sendError(to:address:reason:)``.
    func sendError(about request: ServerRequest, address: @autoclosure () -> String, reason: @autoclosure () -> String)
    {
        guard !request.peer.isLink else { return }
        let peer = request.errorDestination.map { self.peer(for: $0) } ?? request.peer
        deliverError(to: peer, address: address(), reason: reason())
    }

    private func deliverError(
        to peer: ServerPeer, address: @autoclosure () -> String, reason: @autoclosure () -> String
    ) {
        guard peer.errorBucket.consume(1, now: currentNanoseconds()) else {
            stats.errorsSuppressed += 1
            peer.errorsNotSent += 1
            return
        }
        stats.errorsSent += 1
        let address = address()
        var reason = reason()
        if peer.errorsNotSent > 0 {
            reason += " (\(peer.errorsNotSent) more not sent)"
            peer.errorsNotSent = 0
        }
        reply(OSCMessage("/sys/error", [.string(address), .string(reason)]), to: peer)
        log(LogEvent(level: .debug, message: "error to \(peer.description): \(address) \(reason)"))
    }

    /// The reply url of a request that takes `[s url]` (a parameter's `get` or `info`, known or
    /// not, and the `/sys/…` queries), when it carries a valid one; `nil` otherwise.
    func requestReplyURL(_ message: OSCMessageView, _ peer: ServerPeer) -> PeerDestination? {
        // Most messages are sets with a number: they leave at the first test.
        guard message.typeTags.first == UInt8(ascii: "s") else { return nil }
        let address = message.addressBytes
        let takesURL =
            Self.hasSuffix(address, "/get") || Self.hasSuffix(address, "/info")
            || Self.urlQueries.contains { address.count == $0.utf8CodeUnitCount && Self.hasSuffix(address, $0) }
        guard takesURL, let text = message.string(at: 0),
            case .success(let destination) = destination(forURL: text, from: peer, counting: false)
        else { return nil }
        return destination
    }

    /// The `/sys/…` messages whose optional `s url` says where the answer goes.
    static let urlQueries: [StaticString] = [
        "/sys/refresh", "/sys/list", "/sys/groups", "/sys/ping", "/sys/stats", "/sys/preset/list",
    ]

    private static func hasSuffix(_ bytes: UnsafeRawBufferPointer, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let tail = UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - count)...])
        return tail.elementsEqual(UnsafeRawBufferPointer(start: suffix.utf8Start, count: count))
    }

    /// The destination named by a url argument (`osc.udp://host:port/`), or the error to send.
    /// - Parameter counting: whether a url outside the allow list is counted (not when the url is
    ///   only looked at to route an error, before its handler reads it again).
    func destination(
        forURL text: String, from peer: ServerPeer, counting: Bool = true
    ) -> Result<PeerDestination, KnobLinkServerError> {
        // PROTOCOL.md section 7: on a WebSocket, an empty url is the connection itself.
        if text.isEmpty, case .webSocket = peer.destination { return .success(peer.destination) }
        let url: OSCURL
        do {
            url = try OSCURL.parse(text)
        } catch {
            return .failure(.invalidURL(text, reason: "\(error)"))
        }
        if url.transport == .tcp {
            // A TCP peer's replies go on its own connection; the server opens none of its own.
            if case .tcp = peer.destination { return .success(peer.destination) }
            if case .webSocket = peer.destination {
                return .failure(.invalidURL(text, reason: "on a WebSocket, the url \"\" names the connection"))
            }
            return .failure(.invalidURL(text, reason: "osc.tcp urls are only accepted on a TCP connection"))
        }
        var host = url.host == "localhost" ? "127.0.0.1" : url.host
        if udp?.localAddress.family == .ipv6, !host.contains(":") {
            // A socket bound to `::` reaches IPv4 peers through mapped addresses.
            host = "::ffff:" + host
        }
        guard let address = OSCSocketAddress(numericHost: host, port: url.port) else {
            return .failure(.invalidURL(text, reason: "the host must be a numeric address or localhost"))
        }
        // Issue 9: a url is a place the server will send to, held to the same list as senders.
        guard configuration.allowList.contains(address) else {
            if counting { stats.urlOutsideAllowList += 1 }
            return .failure(.invalidURL(text, reason: "the address is outside the allow list (--allow)"))
        }
        return .success(.udp(address))
    }

    /// The peer entity of a url (rule 9.1: a subscription whose url is a peer's reply address belongs to it).
    func peer(for destination: PeerDestination) -> ServerPeer {
        if let known = peers[destination.id] { return known }
        return addPeer(destination, named: true)
    }

    // MARK: Housekeeping

    func scheduleSweep() {
        guard !stopped else { return }
        let period = min(1, max(configuration.implicitExpiry / 4, 0.01))
        sweepTimer = loop.schedule(at: Deadline.after(seconds: period)) { [reference] in
            reference.withCore { core in
                core.sweep()
                core.scheduleSweep()
            }
        }
    }

    /// Ends implicit subscriptions whose peer fell silent, and forgets idle peers.
    func sweep() {
        let now = Self.now()
        for peer in Array(peers.values) {
            let idle = now - peer.lastHeard
            if peer.isUnheard && now - peer.lastNamed >= configuration.implicitExpiry {
                // Named by others and never heard from: its subscriptions end as implicit ones do.
                if peer.isSubscriber || wave?.subscriber(peer.id) != nil {
                    stats.unheardExpired += 1
                    removePeer(peer, reason: "never heard from since it was last named")
                } else {
                    forget(peer)
                }
                continue
            }
            if peer.hasImplicitSubscription && idle >= configuration.implicitExpiry {
                peer.subscriptions.removeAll { $0.isImplicit }
                stats.implicitExpired += 1
                subscriptionsChanged(peer)
                log(LogEvent(level: .info, message: "implicit subscription of \(peer.description) expired"))
            }
            if !peer.isSubscriber, case .udp = peer.destination, idle >= max(configuration.implicitExpiry, 60) {
                forget(peer)
            }
        }
    }
}
