/// Settings of TCP servers and connections.
public struct OSCTCPOptions: Sendable, Hashable {
    /// The longest frame accepted; a longer one closes its connection (PROTOCOL.md section 8: 1 MiB).
    public var maximumFrameLength = 1 << 20
    /// The most bytes a connection may hold waiting to be sent. A peer that stops reading until
    /// its queue passes this is dropped, so that it costs the others nothing.
    public var maximumQueuedBytes = 4 << 20
    /// The most connections a server holds at once. A new connection beyond them takes the place
    /// of the one idle longest, if that one has been idle for ``idleEviction``; otherwise it is
    /// closed as soon as it is accepted.
    public var maximumConnections = 64
    /// How long a connection must have been idle (no frame read or written) to give way to a new
    /// one when ``maximumConnections`` are open; `nil` refuses new connections at the cap instead.
    /// Servers only.
    public var idleEviction: Duration? = .seconds(1)
    /// How long a server's connection may take to complete its first frame; one that has not by
    /// then is closed (``OSCTCPCloseReason/firstFrameTimeout``), so that connections that send
    /// nothing hold no slot. `nil`: no limit. A connection handed over as another protocol is
    /// not concerned.
    public var firstFrameTimeout: Duration? = .seconds(10)
    /// The most bytes of unfinished frames that a server's connections may hold together; beyond
    /// it the connection holding the most is closed (``OSCTCPCloseReason/inputBudgetExceeded``).
    public var maximumBufferedBytes = 16 << 20
    /// How many bytes one `recv` call reads at most.
    public var readChunkSize = 65_536
    /// `TCP_NODELAY`: send small frames at once instead of waiting to fill a segment.
    public var noDelay = true
    /// `SO_KEEPALIVE`: let the kernel probe idle peers, so that one that vanished is found dead.
    public var keepAlive = true

    /// The defaults: 1 MiB frames, 4 MiB write queues, 64 connections (the one idle longest, for
    /// 1 s or more, giving way to a new one), 10 s to the first frame, 16 MiB of unfinished frames.
    public init() {}
}
