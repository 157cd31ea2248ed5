/// A UDP socket connected to one peer: sends OSC datagrams to it and receives its replies.
///
/// The socket is bound to an ephemeral port and `connect`ed, so sends skip the route lookup and
/// an unreachable peer is reported (as `ECONNREFUSED`) by later sends. The destination may be a
/// broadcast address (with ``OSCUDPOptions/broadcast``) or a multicast group.
public final class OSCUDPClient: Sendable {
    private let channel: UDPChannel

    /// The peer.
    public let remoteAddress: OSCSocketAddress

    /// The loop that reads replies.
    public var loop: OSCEventLoop { channel.loop }

    /// The local address the datagrams leave from.
    public var localAddress: OSCSocketAddress { channel.localAddress }

    /// Counters of what was sent and received.
    public var statistics: OSCUDPStatistics { channel.statistics }

    /// Creates a socket connected to `remote`.
    /// - Parameters:
    ///   - remote: the peer.
    ///   - options: buffer sizes, broadcast and multicast settings.
    ///   - loop: the event loop that reads replies; a new one by default.
    /// - Throws: ``OSCSystemError``.
    public init(remote: OSCSocketAddress, options: OSCUDPOptions = OSCUDPOptions(), loop: OSCEventLoop = OSCEventLoop())
        throws(OSCSystemError)
    {
        let local = OSCSocketAddress(numericHost: remote.family == .ipv4 ? "0.0.0.0" : "::", port: 0)!
        channel = try UDPChannel(loop: loop, bindTo: local, connectTo: remote, options: options)
        remoteAddress = remote
    }

    /// Creates a socket connected to the peer of an `osc.udp://host:port/` URL.
    /// - Parameters:
    ///   - url: the peer's URL (a name is looked up, which may block).
    ///   - options: buffer sizes, broadcast and multicast settings.
    ///   - loop: the event loop; a new one by default.
    /// - Throws: ``OSCSocketAddressError`` or ``OSCSystemError``.
    public convenience init(url: OSCURL, options: OSCUDPOptions = OSCUDPOptions(), loop: OSCEventLoop = OSCEventLoop())
        throws
    {
        try self.init(remote: Socket.address(host: url.host, port: url.port), options: options, loop: loop)
    }

    /// Sends a datagram from the caller's thread; it never blocks.
    /// - Parameter bytes: the datagram.
    /// - Returns: `false` if the send buffer was full and the datagram was dropped.
    /// - Throws: ``OSCSystemError``; `ECONNREFUSED` means the peer's port was found closed.
    @discardableResult
    public func send(_ bytes: UnsafeRawBufferPointer) throws(OSCSystemError) -> Bool {
        try channel.sendConnected(bytes)
    }

    /// Sends a datagram; see ``send(_:)-(UnsafeRawBufferPointer)``.
    /// - Parameter bytes: the datagram.
    /// - Returns: `false` if the send buffer was full and the datagram was dropped.
    /// - Throws: ``OSCSystemError``.
    @discardableResult
    public func send(_ bytes: [UInt8]) throws(OSCSystemError) -> Bool {
        try channel.send(array: bytes, to: nil)
    }

    /// Sends several datagrams, many per system call (`sendmmsg`).
    /// - Parameter datagrams: the datagrams.
    /// - Returns: how many were sent.
    /// - Throws: ``OSCSystemError``.
    @discardableResult
    public func send(contentsOf datagrams: [[UInt8]]) throws(OSCSystemError) -> Int {
        try channel.send(datagrams, to: nil)
    }

    /// Starts reading replies; `handler` runs on the loop for each.
    /// - Parameter handler: gets the reply's bytes, valid only during the call, and its sender.
    public func start(_ handler: @escaping @Sendable (UnsafeRawBufferPointer, OSCSocketAddress) -> Void) {
        channel.start(handler)
    }

    /// Starts reading replies and returns them as a stream; use either this or ``start(_:)``.
    /// - Parameter limit: how many replies the stream holds before it drops the oldest.
    /// - Returns: the stream.
    public func datagrams(bufferingNewest limit: Int = 4096) -> AsyncStream<OSCDatagram> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: OSCDatagram.self, bufferingPolicy: .bufferingNewest(limit))
        channel.start { bytes, sender in
            continuation.yield(OSCDatagram(bytes: Array(bytes), sender: sender))
        }
        return stream
    }

    /// Waits on the calling thread for the next reply, for request–reply clients that run on a
    /// thread of their own.
    ///
    /// A reply then costs one thread wake-up, as with a plain blocking socket, instead of a hop
    /// from the reader to the waiting thread. Use it instead of ``start(_:)`` or
    /// ``datagrams(bufferingNewest:)``, never with them; never call it from a task of the Swift
    /// concurrency pool (it blocks), and do not close the client while a call is waiting.
    /// - Parameter timeout: how long to wait.
    /// - Returns: the reply, or `nil` if none came in time (or it was longer than
    ///   ``OSCUDPOptions/maximumDatagramSize``).
    /// - Throws: ``OSCSystemError``; `EBUSY` if a reader was started, `ECONNREFUSED` if the peer's
    ///   port is closed.
    public func receive(timeout: Duration) throws(OSCSystemError) -> OSCDatagram? {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        return try channel.receive(timeoutNanoseconds: max(nanoseconds, 1000))
    }

    /// Closes the socket, once the reader (dispatch source or thread) has let go of it.
    public func close() {
        channel.close()
    }

    // The reader keeps the socket alive while it runs; dropping the last reference closes it.
    deinit {
        channel.close()
    }
}
