/// A peer of the server (rule 9.1): where its replies go, its rate limit, its subscriptions and
/// its feedback state. Owned by the event loop (hence unchecked `Sendable`: only the loop touches it).
final class ServerPeer: @unchecked Sendable {
    let destination: PeerDestination
    let id: PeerID
    let datagramLimit: Int
    /// Monotonic seconds of the last message heard from this peer.
    var lastHeard: Double
    var bucket: TokenBucket
    /// The `/sys/error` rate limit (rule 9.2): a burst of ``errorBurst``, then one a second.
    var errorBucket: TokenBucket
    /// Errors not sent since the last one that was, named in the next one's reason.
    var errorsNotSent = 0
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
    /// Whether packets came from this address (counted in the server's heard hosts while the
    /// peer is in the table).
    var isHeard = false
    /// Whether the peer is a UDP url that others named and that has not sent anything, nor any
    /// address of its host, and is not trusted: it gets at most three times the bytes of the
    /// requests that named it (ServerCore+Amplification.swift).
    var isUnheard = false
    /// Bytes this unheard peer may still be sent.
    var credit = 0
    /// The serial of the last packet that added to ``credit`` (a packet adds once).
    var creditedPacket: UInt64 = 0
    /// Monotonic seconds of the last request that named this unheard peer.
    var lastNamed: Double
    /// The address bytes of the host whose request subscribed this url, when that was another
    /// peer than this one (a host holds at most a few such urls).
    var sponsorHost: [UInt8]?
    /// Whether the server's peer table still holds this peer (cleared when it is removed, so that
    /// feedback waiting for it is dropped without a table lookup).
    var isInTable = true

    /// - Parameter nanoseconds: now, on the server's clock (``ServerClock``).
    init(destination: PeerDestination, nanoseconds: UInt64, bucket: TokenBucket) {
        self.destination = destination
        id = destination.id
        datagramLimit = destination.datagramLimit
        let now = Double(nanoseconds) / 1e9
        lastHeard = now
        lastNamed = now
        self.bucket = bucket
        errorBucket = TokenBucket(capacity: Self.errorBurst, refillPerSecond: 1, now: nanoseconds)
    }

    /// The most `/sys/error` messages a peer gets at once (rule 9.2): a script that sends a few
    /// bad lines sees every error, and a flood gets one a second.
    static let errorBurst = 10

    var isSubscriber: Bool { !subscriptions.isEmpty }
    var hasImplicitSubscription: Bool { subscriptions.contains { $0.isImplicit } }
    var description: String { destination.description }
}
