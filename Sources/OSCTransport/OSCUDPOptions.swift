/// Settings of a UDP socket.
public struct OSCUDPOptions: Sendable, Hashable {
    /// The receive buffer to ask the kernel for (`SO_RCVBUF`). Linux doubles it and caps it at
    /// `net.core.rmem_max`. Without a few MiB, bursts are lost even on loopback.
    public var receiveBufferSize: Int = 4 << 20
    /// The send buffer to ask for (`SO_SNDBUF`), or `nil` for the system's default.
    public var sendBufferSize: Int?
    /// `SO_REUSEADDR` (and `SO_REUSEPORT`), so that several sockets can bind one multicast port.
    public var reuseAddress = false
    /// `SO_BROADCAST`: allows sending to a broadcast address.
    public var broadcast = false
    /// `IP_MULTICAST_LOOP`: whether multicast sent from this host is also received on it.
    public var multicastLoopback = true
    /// `IP_MULTICAST_TTL` / `IPV6_MULTICAST_HOPS`: how many routers multicast may cross.
    public var multicastTTL: Int32 = 1
    /// The local IPv4 address of the interface that multicast leaves by (`IP_MULTICAST_IF`), or
    /// `nil` for the routing table's choice.
    public var multicastInterface: String?
    /// How many datagrams one `recvmmsg` call takes.
    public var batchSize = 32
    /// How many full receive calls in a row make one batch for `onBatchEnd`
    /// (``OSCUDPServer/start(_:onBatchEnd:onDeliveryFailure:)``) while datagrams keep queuing.
    ///
    /// A call that fills every slot means more is probably waiting, so the socket is read again
    /// at once, without waiting, before the end of the batch is reported; the end comes when a
    /// call returns fewer datagrams, finds none, or this many calls were full. A server that
    /// flushes its feedback at each batch's end then sends one bundle per subscriber for up to
    /// `batchSize × fullBatchesPerEnd` datagrams under load, and at once when they come one at a
    /// time. 1 reports the end of every call.
    public var fullBatchesPerEnd = 4
    /// The largest datagram received whole; longer ones are dropped and counted.
    public var maximumDatagramSize = 65_536

    /// How a socket waits for datagrams.
    public enum Reader: Sendable, Hashable {
        /// A `DispatchSource` on the event loop's queue. Dispatch's manager thread watches the
        /// socket and wakes a worker to run the loop: two thread wake-ups per burst.
        case dispatchSource
        /// A thread of the socket's own (not one of the Swift concurrency pool) that waits in
        /// `poll` and runs the handlers on the loop's queue with `DispatchQueue.sync`, which
        /// executes them in place when the loop is idle: one wake-up per burst, about half the
        /// round-trip time of ``dispatchSource`` on loopback. The handlers still run serialised
        /// with everything else on the loop.
        case thread
    }

    /// How the socket waits for datagrams; ``Reader/thread`` by default, for latency.
    public var reader = Reader.thread

    /// The defaults: a 4 MiB receive buffer, batches of 32 (up to four of them back to back under
    /// load), datagrams up to 64 KiB, a reader thread.
    public init() {}
}
