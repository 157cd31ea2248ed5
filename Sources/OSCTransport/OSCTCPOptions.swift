/// Settings of TCP servers and connections.
public struct OSCTCPOptions: Sendable, Hashable {
    /// The longest frame accepted; a longer one closes its connection (PROTOCOL.md section 8: 1 MiB).
    public var maximumFrameLength = 1 << 20
    /// The most bytes a connection may hold waiting to be sent. A peer that stops reading until
    /// its queue passes this is dropped, so that it costs the others nothing.
    public var maximumQueuedBytes = 4 << 20
    /// The most connections a server holds at once; more are closed as soon as they are accepted.
    public var maximumConnections = 64
    /// How many bytes one `recv` call reads at most.
    public var readChunkSize = 65_536
    /// `TCP_NODELAY`: send small frames at once instead of waiting to fill a segment.
    public var noDelay = true
    /// `SO_KEEPALIVE`: let the kernel probe idle peers, so that one that vanished is found dead.
    public var keepAlive = true

    /// The defaults: 1 MiB frames, 4 MiB write queues, 64 connections.
    public init() {}
}
