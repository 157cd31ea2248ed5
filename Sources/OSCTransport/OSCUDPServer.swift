/// A UDP socket bound to a local port that receives OSC datagrams and answers their senders.
///
/// Datagrams are read many per system call, by the socket's reader thread or a dispatch source
/// (``OSCUDPOptions/reader``), and handed to the handler given to ``start(_:)`` on the event
/// loop, as a pointer into the receive buffer: no copy is made. Replies sent with
/// `send(_:to:)` leave from the listening socket, so the peer sees them come from the port it
/// sent to (as liblo's `lo_send_from` does).
///
/// ```swift
/// let server = try OSCUDPServer(port: 0)
/// server.start { bytes, sender in
///     _ = try? server.send(bytes, to: sender)   // echo
/// }
/// print(server.localAddress.port)
/// ```
public final class OSCUDPServer: Sendable {
    private let channel: UDPChannel

    /// The loop that reads the socket and runs the handler.
    public var loop: OSCEventLoop { channel.loop }

    /// The bound address; its port is the one the kernel chose when bound to port 0.
    public var localAddress: OSCSocketAddress { channel.localAddress }

    /// The receive buffer the kernel granted (`SO_RCVBUF` read back).
    public var receiveBufferSize: Int { channel.receiveBufferSize }

    /// Counters of what was received, dropped and sent.
    public var statistics: OSCUDPStatistics { channel.statistics }

    /// Binds a UDP socket.
    ///
    /// - Parameters:
    ///   - host: the local address: `0.0.0.0` (all IPv4 interfaces, the default), `::` (IPv6,
    ///     and IPv4 through mapped addresses), `127.0.0.1`, `::1`, or a name (looked up, which may block).
    ///   - port: the port; 0 lets the kernel choose (read it from ``localAddress``).
    ///   - options: buffer sizes, broadcast, multicast and batching.
    ///   - loop: the event loop; a new one by default.
    /// - Throws: ``OSCSocketAddressError`` or ``OSCSystemError``.
    public init(
        host: String = "0.0.0.0", port: UInt16 = 0, options: OSCUDPOptions = OSCUDPOptions(),
        loop: OSCEventLoop = OSCEventLoop()
    ) throws {
        let address = try Socket.address(host: host, port: port)
        channel = try UDPChannel(loop: loop, bindTo: address, connectTo: nil, options: options)
    }

    /// Starts reading; `handler` runs on the loop for each datagram.
    ///
    /// - Parameter handler: gets the datagram's bytes, valid only during the call, and its sender.
    ///   It runs on the event loop: it must not block.
    public func start(_ handler: @escaping @Sendable (UnsafeRawBufferPointer, OSCSocketAddress) -> Void) {
        channel.start(handler)
    }

    /// Starts reading, and reports the ICMP errors that come back for datagrams sent from this
    /// socket (a closed port, an unreachable host).
    ///
    /// A socket that is not connected hears of those only through its error queue: this turns on
    /// `IP_RECVERR` (and `IPV6_RECVERR` for an IPv6 socket) and reads the queue whenever the
    /// kernel flags it. Reports waiting for the loop are capped
    /// (``OSCUDPStatistics/deliveryFailuresDropped`` counts the excess). On systems without an
    /// error queue the handler is never called.
    /// - Parameters:
    ///   - handler: gets each datagram, as in ``start(_:)``.
    ///   - onBatchEnd: called on the loop after the datagrams of one batch went to `handler`:
    ///     where to send, once, what a burst of datagrams asked for. A batch is one receive call
    ///     (one datagram or many), or, while the socket keeps filling every call, up to
    ///     ``OSCUDPOptions/fullBatchesPerEnd`` calls read back to back.
    ///   - onDeliveryFailure: gets each report, on the loop.
    public func start(
        _ handler: @escaping @Sendable (UnsafeRawBufferPointer, OSCSocketAddress) -> Void,
        onBatchEnd: (@Sendable () -> Void)? = nil,
        onDeliveryFailure: @escaping @Sendable (OSCDeliveryFailure) -> Void
    ) {
        channel.start(handler, onBatchEnd: onBatchEnd, onFailure: onDeliveryFailure)
    }

    /// Starts reading and returns the datagrams as a stream, each copied out of the receive buffer.
    ///
    /// Use either this or ``start(_:)``, once.
    /// - Parameter limit: how many datagrams the stream holds for a slow consumer before it drops the oldest.
    /// - Returns: the stream; it finishes when the server is closed and the stream is dropped.
    public func datagrams(bufferingNewest limit: Int = 4096) -> AsyncStream<OSCDatagram> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: OSCDatagram.self, bufferingPolicy: .bufferingNewest(limit))
        channel.start { bytes, sender in
            continuation.yield(OSCDatagram(bytes: Array(bytes), sender: sender))
        }
        let channel = channel
        continuation.onTermination = { _ in channel.close() }
        return stream
    }

    /// Sends a datagram from the listening socket, from the caller's thread; it never blocks.
    /// - Parameters:
    ///   - bytes: the datagram.
    ///   - address: the destination, such as the sender of a received datagram.
    /// - Returns: `false` if the send buffer was full and the datagram was dropped.
    /// - Throws: ``OSCSystemError`` (for instance `EHOSTUNREACH`, or `EBADF` once closed).
    @discardableResult
    public func send(_ bytes: UnsafeRawBufferPointer, to address: OSCSocketAddress) throws(OSCSystemError) -> Bool {
        try channel.send(bytes, to: address)
    }

    /// Sends a datagram from the listening socket; see ``send(_:to:)-(UnsafeRawBufferPointer,_)``.
    /// - Parameters:
    ///   - bytes: the datagram.
    ///   - address: the destination.
    /// - Returns: `false` if the send buffer was full and the datagram was dropped.
    /// - Throws: ``OSCSystemError``.
    @discardableResult
    public func send(_ bytes: [UInt8], to address: OSCSocketAddress) throws(OSCSystemError) -> Bool {
        try channel.send(array: bytes, to: address)
    }

    /// Sends several datagrams to one destination, many per system call (`sendmmsg`).
    /// - Parameters:
    ///   - datagrams: the datagrams.
    ///   - address: the destination.
    /// - Returns: how many were sent; the rest were dropped because the send buffer was full.
    /// - Throws: ``OSCSystemError``.
    @discardableResult
    public func send(contentsOf datagrams: [[UInt8]], to address: OSCSocketAddress) throws(OSCSystemError) -> Int {
        try channel.send(datagrams, to: address)
    }

    /// Joins a multicast group, so that datagrams sent to it on this server's port arrive here.
    ///
    /// Bind to `0.0.0.0` (or `::`) with ``OSCUDPOptions/reuseAddress`` to share the port with other receivers.
    /// - Parameters:
    ///   - group: the group's address, such as `239.255.0.1` or `ff02::1:1`.
    ///   - interface: the local IPv4 address of the interface to join on, or `nil` for the default.
    /// - Throws: ``OSCSocketAddressError`` if an address is not numeric, or ``OSCSystemError``.
    public func joinMulticastGroup(_ group: String, interface: String? = nil) throws {
        try changeMembership(group, interface: interface, leave: false)
    }

    /// Leaves a multicast group joined with ``joinMulticastGroup(_:interface:)``.
    /// - Parameters:
    ///   - group: the group's address.
    ///   - interface: the interface it was joined on.
    /// - Throws: ``OSCSocketAddressError`` or ``OSCSystemError``.
    public func leaveMulticastGroup(_ group: String, interface: String? = nil) throws {
        try changeMembership(group, interface: interface, leave: true)
    }

    private func changeMembership(_ group: String, interface: String?, leave: Bool) throws {
        guard let groupAddress = OSCSocketAddress(numericHost: group, port: 0), groupAddress.isMulticast else {
            throw OSCSocketAddressError.unresolvedHost(group, reason: "not a numeric multicast address")
        }
        var interfaceAddress: OSCSocketAddress?
        if let interface {
            guard let address = OSCSocketAddress(numericHost: interface, port: 0) else {
                throw OSCSocketAddressError.unresolvedHost(interface, reason: "not a numeric address")
            }
            interfaceAddress = address
        }
        try channel.join(group: groupAddress, interface: interfaceAddress, leave: leave)
    }

    /// Stops reading and closes the socket, once the reader (dispatch source or thread) has let go of it.
    public func close() {
        channel.close()
    }

    // The reader keeps the socket alive while it runs; dropping the last reference closes it.
    deinit {
        channel.close()
    }
}
