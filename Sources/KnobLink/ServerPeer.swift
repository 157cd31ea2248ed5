/// A peer of the server (rule 9.1): where its replies go, its rate limit, its subscriptions and
/// its feedback state. Owned by the event loop (hence unchecked `Sendable`: only the loop touches it).
final class ServerPeer: @unchecked Sendable {
    let destination: PeerDestination
    let id: PeerID
    let datagramLimit: Int
    /// Monotonic seconds of the last message heard from this peer.
    var lastHeard: Double
    var bucket: TokenBucket
    /// Monotonic seconds of the last `/sys/error` sent (at most one a second, rule 9.2).
    var lastErrorSent = -Double.infinity
    /// ICMP "unreachable" reports since the peer was last heard from.
    var unreachableReports = 0
    var subscriptions: [Subscription] = []
    /// Present while the peer has a subscription.
    var state: SubscriberState?
    /// Whether the peer is in the server's list of peers with values waiting.
    var isWaiting = false
    /// Whether the peer is another instance linked to this one (no implicit subscription, no
    /// corrections, no `/sys/error`: rule 9.10).
    var isLink = false
    /// Whether the server's peer table still holds this peer (cleared when it is removed, so that
    /// feedback waiting for it is dropped without a table lookup).
    var isInTable = true

    init(destination: PeerDestination, now: Double, bucket: TokenBucket) {
        self.destination = destination
        id = destination.id
        datagramLimit = destination.datagramLimit
        lastHeard = now
        self.bucket = bucket
    }

    var isSubscriber: Bool { !subscriptions.isEmpty }
    var hasImplicitSubscription: Bool { subscriptions.contains { $0.isImplicit } }
    var description: String { destination.description }
}
