import Dispatch
import OSCCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP listener whose connections carry OSC in either stream framing, or another protocol.
///
/// The first byte of each connection selects its protocol (`OSCFraming.detect(firstByte:)`):
/// `0xC0`, `/` or `#` SLIP, `0x00` length prefix; anything else (an HTTP `GET `) goes to the
/// `onOtherProtocol` handler with the bytes read so far. Each connection has its own decoder,
/// frame limit and bounded write queue, so a misbehaving peer is closed without disturbing others.
///
/// Connections cost the server bounded resources (PROTOCOL.md section 8): at most
/// ``OSCTCPOptions/maximumConnections`` at once (at the cap, the one idle longest gives way to a
/// new one), each must complete a frame within ``OSCTCPOptions/firstFrameTimeout``, and all
/// together hold at most ``OSCTCPOptions/maximumBufferedBytes`` of unfinished frames (beyond
/// it, the one holding the most is closed).
public final class OSCTCPServer: @unchecked Sendable {
    /// The loop that accepts, reads and writes.
    public let loop: OSCEventLoop
    /// The bound address; its port is the one the kernel chose when bound to port 0.
    public let localAddress: OSCSocketAddress

    private let fd: Int32
    private let options: OSCTCPOptions
    private let source: DispatchSourceRead

    // Owned by the loop.
    private var handlers: OSCTCPConnection.Handlers?
    private var connections: [ObjectIdentifier: OSCTCPConnection] = [:]
    private var started = false
    private var closed = false
    private var refusedCount = 0
    private var evictedCount = 0
    private var budgetClosedCount = 0
    private var buffered = 0
    private var finishStream: (() -> Void)?

    /// Binds and listens.
    ///
    /// - Parameters:
    ///   - host: the local address (`0.0.0.0` by default, `::`, `127.0.0.1`, …).
    ///   - port: the port; 0 lets the kernel choose (read it from ``localAddress``).
    ///   - options: frame limit, write-queue bound, connection cap.
    ///   - loop: the event loop; a new one by default.
    /// - Throws: ``OSCSocketAddressError`` or ``OSCSystemError``.
    public init(
        host: String = "0.0.0.0", port: UInt16 = 0, options: OSCTCPOptions = OSCTCPOptions(),
        loop: OSCEventLoop = OSCEventLoop()
    ) throws {
        let address = try Socket.address(host: host, port: port)
        let fd = try Socket.make(family: address.family, type: Socket.streamType)
        do {
            try Socket.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1, "setsockopt(SO_REUSEADDR)")
            try Socket.bind(fd, to: address)
            try SystemCall.require("listen") { listen(fd, 128) }
            localAddress = try Socket.localAddress(fd)
        } catch {
            Socket.closeDescriptor(fd)
            throw error
        }
        self.fd = fd
        self.loop = loop
        self.options = options
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: loop.queue)
        source.setCancelHandler { Socket.closeDescriptor(fd) }
    }

    deinit {
        if !closed {
            if !started { source.resume() }
            source.cancel()
        }
    }

    /// Starts accepting connections.
    ///
    /// All handlers run on the loop and must not block.
    /// - Parameters:
    ///   - onFrame: gets each OSC frame (valid only during the call) and its connection; reply
    ///     with ``OSCTCPConnection/send(_:)``, which frames like the connection.
    ///   - onOtherProtocol: gets a connection that started with neither framing, and the bytes
    ///     read so far; it takes the connection over (``OSCTCPConnection/setRawHandler(_:)``,
    ///     ``OSCTCPConnection/write(_:)``). Without it such connections are closed.
    ///   - onClose: told when a connection closes, and why.
    public func start(
        onFrame: @escaping @Sendable (UnsafeRawBufferPointer, OSCTCPConnection) -> Void,
        onOtherProtocol: (@Sendable (OSCTCPConnection, UnsafeRawBufferPointer) -> Void)? = nil,
        onClose: (@Sendable (OSCTCPConnection, OSCTCPCloseReason) -> Void)? = nil
    ) {
        let handlers = OSCTCPConnection.Handlers(frame: onFrame, otherProtocol: onOtherProtocol, closed: onClose)
        loop.executeSoon { [self] in
            guard !started, !closed else { return }
            started = true
            self.handlers = handlers
            source.setEventHandler { [weak self] in self?.acceptAll() }
            source.resume()
        }
    }

    /// Starts accepting connections and returns their frames as a stream, each copied out of
    /// the read buffer; connections that speak another protocol are closed.
    ///
    /// Use either this or ``start(onFrame:onOtherProtocol:onClose:)``, once.
    /// - Parameter limit: how many frames the stream holds for a slow consumer before it drops the oldest.
    /// - Returns: the stream; it finishes when the server is closed.
    public func frames(bufferingNewest limit: Int = 4096) -> AsyncStream<OSCTCPFrame> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: OSCTCPFrame.self, bufferingPolicy: .bufferingNewest(limit))
        start(onFrame: { bytes, connection in
            continuation.yield(OSCTCPFrame(bytes: Array(bytes), connection: connection))
        })
        loop.executeSoon { [self] in
            if closed { continuation.finish() } else { finishStream = { continuation.finish() } }
        }
        continuation.onTermination = { [weak self] _ in self?.close() }
        return stream
    }

    /// The open connections. Read on the loop.
    public var openConnections: [OSCTCPConnection] { Array(connections.values) }

    /// Connections closed at once because ``OSCTCPOptions/maximumConnections`` were open and none
    /// had been idle for ``OSCTCPOptions/idleEviction``. Read on the loop.
    public var refusedConnections: Int { refusedCount }

    /// Connections closed to make room for a new one at the cap (``OSCTCPCloseReason/evicted``). Read on the loop.
    public var evictedConnections: Int { evictedCount }

    /// Connections closed because all together held more than ``OSCTCPOptions/maximumBufferedBytes``
    /// of unfinished frames (``OSCTCPCloseReason/inputBudgetExceeded``). Read on the loop.
    public var budgetClosedConnections: Int { budgetClosedCount }

    /// The bytes of unfinished frames that the open connections hold. Read on the loop.
    public var bufferedBytes: Int { buffered }

    /// Stops listening and closes every connection.
    public func close() {
        loop.executeSoon { [self] in
            guard !closed else { return }
            closed = true
            if !started { source.resume() }
            source.cancel()
            for connection in connections.values { connection.teardown(.closedLocally) }
            connections = [:]
            finishStream?()
            finishStream = nil
        }
    }

    private func acceptAll() {
        guard let handlers, !closed else { return }
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let accepted: Int32?
            do {
                accepted = try withUnsafeMutablePointer(to: &storage) { (pointer) throws(OSCSystemError) -> Int32? in
                    try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        (address) throws(OSCSystemError) -> Int32? in
                        try SystemCall.run("accept") { accept(fd, address, &length) }
                    }
                }
            } catch {
                // ECONNABORTED and friends concern one connection; EMFILE clears when others close.
                return
            }
            guard let client = accepted else { return }
            // Glibc declares accept4 only under _GNU_SOURCE, so the flags are set afterwards.
            try? Socket.setNonBlocking(client)
            if connections.count >= options.maximumConnections { evictIdlest() }
            guard connections.count < options.maximumConnections,
                let remote = OSCSocketAddress(storage: storage, length: length),
                let local = try? Socket.localAddress(client)
            else {
                refusedCount += 1
                Socket.closeDescriptor(client)
                continue
            }
            Self.configure(client, options: options)
            let connection = OSCTCPConnection(
                fd: client, remote: remote, local: local, framing: nil, options: options, loop: loop,
                handlers: handlers,
                detach: { [weak self] connection in self?.connections[ObjectIdentifier(connection)] = nil })
            connection.onBufferedBytesChange = { [weak self] connection, delta in
                self?.bufferedBytesChanged(connection, by: delta)
            }
            connections[ObjectIdentifier(connection)] = connection
            connection.start(firstFrameTimeout: options.firstFrameTimeout)
        }
    }

    /// Closes the connection idle longest, if it has been idle long enough, to make room.
    private func evictIdlest() {
        guard let minimum = options.idleEviction,
            let idlest = connections.values.min(by: { $0.lastActivity < $1.lastActivity })
        else { return }
        let (seconds, attoseconds) = minimum.components
        let nanoseconds = UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
        let now = DispatchTime.now().uptimeNanoseconds
        guard now >= idlest.lastActivity, now - idlest.lastActivity >= nanoseconds else { return }
        evictedCount += 1
        // Its close handler detaches it from `connections` at once.
        idlest.teardown(.evicted)
    }

    /// Keeps the total of unfinished input within the budget by closing the largest holders.
    private func bufferedBytesChanged(_ connection: OSCTCPConnection, by delta: Int) {
        buffered += delta
        while buffered > options.maximumBufferedBytes,
            let largest = connections.values.max(by: { $0.bufferedBytes < $1.bufferedBytes }),
            largest.bufferedBytes > 0
        {
            budgetClosedCount += 1
            largest.teardown(.inputBudgetExceeded)
        }
    }

    static func configure(_ fd: Int32, options: OSCTCPOptions) {
        if options.noDelay { try? Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1, "setsockopt(TCP_NODELAY)") }
        if options.keepAlive {
            try? Socket.setOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1, "setsockopt(SO_KEEPALIVE)")
            #if os(Linux)
                // Probe after 30 s idle, every 10 s, 3 times: a vanished peer is dropped within a minute.
                try? Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, 30, "setsockopt(TCP_KEEPIDLE)")
                try? Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, 10, "setsockopt(TCP_KEEPINTVL)")
                try? Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, 3, "setsockopt(TCP_KEEPCNT)")
            #endif
        }
    }
}
