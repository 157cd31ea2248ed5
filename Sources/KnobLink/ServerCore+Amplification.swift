import OSCCore
import OSCTransport

/// Reflection and amplification (issue 9, PROTOCOL.md section 8): a peer names a url in
/// `/sys/subscribe`, `/wave/sub`, `P/get` and the other requests that take one, and the server
/// sends there. Without a bound, 150 KB of `/wave/sub` to a victim's address became 849 MB.
///
/// As QUIC does before an address is validated (RFC 9000 section 8), a destination that has never
/// sent the server anything, and whose host has not either, gets at most
/// ``amplificationFactor`` times the bytes of the packets that named it; destinations in
/// `--trust` (loopback by default) are exempt. Subscriptions to such a destination end
/// ``KnobLinkServer/Configuration/implicitExpiry`` after the last request that named it, as
/// implicit ones end after the peer's last message. Every url must also be inside `--allow`
/// (``destination(forURL:from:)``).
extension ServerCore {
    /// The most bytes sent to an unheard destination per byte of the requests that named it.
    static let amplificationFactor = 3
    /// The most credit an unheard destination can bank, so that a stream of small requests
    /// cannot save up for one large burst.
    static let maximumCredit = 64 * 1024
    /// The most subscription urls other than its own that one host may hold (issue 9: 64
    /// subscriptions to silent addresses locked every new subscriber out).
    static let maximumURLsPerHost = 8

    /// Whether a new peer for `destination`, made because a request named it, starts unheard.
    func startsUnheard(_ destination: PeerDestination) -> Bool {
        guard case .udp(let address) = destination else { return false }
        if configuration.trusted.contains(address) { return false }
        return heardHosts[address.addressBytes] == nil
    }

    /// Packets came from `peer`'s address: it and every unheard peer of its host are heard now.
    func heard(_ peer: ServerPeer) {
        peer.isHeard = true
        if peer.isUnheard {
            peer.isUnheard = false
            unheardPeers -= 1
        }
        guard peer.isInTable, case .udp(let address) = peer.destination else { return }
        let host = address.addressBytes
        let known = heardHosts[host, default: 0]
        heardHosts[host] = known + 1
        guard known == 0, unheardPeers > 0 else { return }
        for other in peers.values where other.isUnheard {
            if case .udp(let otherAddress) = other.destination, otherAddress.addressBytes == host {
                other.isUnheard = false
                unheardPeers -= 1
            }
        }
    }

    /// Takes a peer that leaves the table out of the counts above.
    func forgetCounts(of peer: ServerPeer) {
        if peer.isUnheard {
            peer.isUnheard = false
            unheardPeers -= 1
        }
        guard peer.isHeard, case .udp(let address) = peer.destination else { return }
        let host = address.addressBytes
        let count = heardHosts[host, default: 1] - 1
        heardHosts[host] = count > 0 ? count : nil
    }

    /// Called when a run of packets to the unheard `peer` starts: the packet being handled, if it
    /// is another peer's request, adds its bytes times ``amplificationFactor`` to the peer's
    /// credit, once.
    func creditUnheard(_ peer: ServerPeer) {
        guard let packet, packet.peer !== peer, peer.creditedPacket != packet.serial else { return }
        peer.creditedPacket = packet.serial
        peer.credit = min(peer.credit + Self.amplificationFactor * packet.bytes, Self.maximumCredit)
        peer.lastNamed = packet.seconds
    }

    /// Whether `count` bytes may go to the unheard `peer` now; takes them from its credit.
    func spendCredit(_ peer: ServerPeer, _ count: Int) -> Bool {
        guard peer.credit >= count else {
            stats.amplificationLimited += 1
            return false
        }
        peer.credit -= count
        return true
    }

    /// How many urls other than their own the peers of `host` have subscribed.
    func urlsHeld(by host: [UInt8]) -> Int {
        var count = 0
        for subscriber in subscribers where subscriber.sponsorHost == host { count += 1 }
        return count + (wave?.urlsHeld(by: host) ?? 0)
    }

    /// The host of `requester`, if it may subscribe one more url other than its own: it holds
    /// fewer than ``maximumURLsPerHost``, or `sponsor` (the url's current one) is that host
    /// already. Otherwise `nil`, and the error has been sent.
    func hostAdmittingURL(from requester: ServerPeer, sponsor: [UInt8]?, _ message: OSCMessageView) -> [UInt8]? {
        let host = host(of: requester)
        guard sponsor == host || urlsHeld(by: host) < Self.maximumURLsPerHost else {
            stats.urlsPerHostCap += 1
            sendError(
                to: requester, address: message.address,
                reason: "too many subscription urls from this address (at most \(Self.maximumURLsPerHost))")
            return nil
        }
        return host
    }

    /// The address bytes of the host `peer` sends from.
    func host(of peer: ServerPeer) -> [UInt8] {
        switch peer.destination {
        case .udp(let address): address.addressBytes
        case .tcp(let connection): connection.remoteAddress.addressBytes
        case .webSocket(let session): session.connection.remoteAddress.addressBytes
        }
    }
}
