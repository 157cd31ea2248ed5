import Dispatch
import OSCCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP connection on an event loop: an OSC stream in either framing, or, when it started
/// with another protocol, a raw byte stream handed to another handler.
///
/// Reads, writes and closing happen on the loop. ``send(_:)`` and ``write(_:)`` may be called
/// from any thread: they never block. Bytes that the socket does not take at once wait in a
/// bounded queue; a peer that stops reading until the queue overflows is dropped, and only it.
public final class OSCTCPConnection: @unchecked Sendable, Hashable, CustomStringConvertible {
    enum Mode {
        case detecting
        case osc
        case raw
    }

    /// The handlers a connection calls on the loop.
    struct Handlers: Sendable {
        var frame: @Sendable (UnsafeRawBufferPointer, OSCTCPConnection) -> Void
        var otherProtocol: (@Sendable (OSCTCPConnection, UnsafeRawBufferPointer) -> Void)?
        var closed: (@Sendable (OSCTCPConnection, OSCTCPCloseReason) -> Void)?
    }

    /// The loop that owns the connection.
    public let loop: OSCEventLoop
    /// The peer's address.
    public let remoteAddress: OSCSocketAddress
    /// The local end's address.
    public let localAddress: OSCSocketAddress

    private let fd: Int32
    private let options: OSCTCPOptions
    private let readSource: DispatchSourceRead
    private var writeSource: DispatchSourceWrite?
    private var writeSourceRunning = false
    private var pendingCancels = 1

    // Owned by the loop.
    private var mode: Mode
    private var decoder: OSCFramingDecoder?
    private var buffer = OSCFramingBuffer(capacity: 4096)
    private var handlers: Handlers
    private var rawHandler: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    private var queue: [[UInt8]] = []
    private var queueHead = 0
    private var headOffset = 0
    private var closed = false
    private var detachedFromServer: (@Sendable (OSCTCPConnection) -> Void)?
    /// Told of each change of ``bufferedBytes`` (a server's budget of unfinished input).
    var onBufferedBytesChange: ((OSCTCPConnection, _ delta: Int) -> Void)?
    private var firstFrameTimer: DispatchWorkItem?
    private var sentPacket = false
    private var closesWhenWritten = false

    /// The bytes of unfinished frames the connection holds. Read it on the loop.
    public private(set) var bufferedBytes = 0

    /// Whether a whole frame has been read from the peer. Read it on the loop.
    public private(set) var hasCompletedFrame = false

    /// When a frame was last read or bytes last written (monotonic nanoseconds), or the
    /// connection opened. Read it on the loop.
    public private(set) var lastActivity = DispatchTime.now().uptimeNanoseconds

    /// Up to the first 8 bytes the peer sent, as read when its protocol was detected (empty
    /// before). Read it on the loop.
    public private(set) var firstBytes: [UInt8] = []

    /// The number of bytes waiting to be sent. Read it on the loop.
    public private(set) var queuedBytes = 0

    /// Bytes the socket took and bytes read from it so far; any thread may read them.
    private let bytesWritten = Atomic<Int>(0)
    private let bytesRead = Atomic<Int>(0)
    private let sendsWouldBlock = Atomic<Int>(0)
    private let packetsAfterClose = Atomic<Int>(0)

    /// The connection's framing, once known: set from the first byte on a server, given on a
    /// client; `nil` while unknown and on a connection that speaks another protocol. Read it on the loop.
    public private(set) var framing: OSCFraming?

    /// Whether the connection is closed. Read it on the loop.
    public var isClosed: Bool { closed }

    init(
        fd: Int32, remote: OSCSocketAddress, local: OSCSocketAddress, framing: OSCFraming?, options: OSCTCPOptions,
        loop: OSCEventLoop, handlers: Handlers, detach: (@Sendable (OSCTCPConnection) -> Void)?,
        raw: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil
    ) {
        self.fd = fd
        self.loop = loop
        self.options = options
        self.handlers = handlers
        remoteAddress = remote
        localAddress = local
        detachedFromServer = detach
        self.framing = framing
        if let raw {
            mode = .raw
            rawHandler = raw
        } else if let framing {
            mode = .osc
            decoder = OSCFramingDecoder(framing: framing, maximumFrameLength: options.maximumFrameLength)
        } else {
            mode = .detecting
        }
        readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: loop.queue)
    }

    /// Starts reading; call on the loop.
    /// - Parameter firstFrameTimeout: how long the peer has to complete a frame (servers).
    func start(firstFrameTimeout: Duration? = nil) {
        readSource.setEventHandler { [self] in readable() }
        readSource.setCancelHandler { [self] in descriptorSourceCancelled() }
        readSource.resume()
        if let firstFrameTimeout {
            let (seconds, attoseconds) = firstFrameTimeout.components
            let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
            firstFrameTimer = loop.schedule(at: .now() + .nanoseconds(max(nanoseconds, 0))) { [weak self] in
                guard let self, !closed, !hasCompletedFrame, mode != .raw else { return }
                teardown(.firstFrameTimeout)
            }
        }
    }

    /// Sets the handler of the bytes that follow on a connection handed over as another protocol.
    ///
    /// Call it on the loop, from the `otherProtocol` handler of ``OSCTCPServer/start(onFrame:onOtherProtocol:onClose:)``,
    /// so that no bytes are missed.
    /// - Parameter handler: gets each chunk of bytes as it is read, valid only during the call.
    public func setRawHandler(_ handler: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        loop.assertInLoop()
        rawHandler = handler
    }

    /// Sends one OSC packet, framed like the connection (raw if it speaks another protocol).
    /// - Parameter packet: the packet's bytes.
    public func send(_ packet: [UInt8]) {
        loop.executeSoon { [self] in
            guard !closed else {
                packetsAfterClose.add(1, ordering: .relaxed)
                return
            }
            guard let framing else { return enqueue(packet) }
            var framed: [UInt8] = []
            framed.reserveCapacity(packet.count + 8)
            // The first packet of the stream goes without SLIP's leading END (rule 9.13) when a
            // receiver can still tell the framing from its first byte: every OSC packet starts
            // with `/` or `#`.
            let first = !sentPacket && (packet.first == UInt8(ascii: "/") || packet.first == UInt8(ascii: "#"))
            sentPacket = true
            packet.withUnsafeBytes { framing.encode($0, into: &framed, first: first) }
            enqueue(framed)
        }
    }

    /// Writes bytes as they are, without framing (for connections that speak another protocol).
    /// - Parameter bytes: the bytes.
    public func write(_ bytes: [UInt8]) {
        loop.executeSoon { [self] in
            guard !closed else { return }
            enqueue(bytes)
        }
    }

    /// Closes the connection once every byte queued before the call is written (an HTTP
    /// response that ends its connection); at once when nothing waits. A peer that stops reading
    /// meanwhile is dropped as always, when its queue overflows or its owner times it out.
    public func closeAfterWriting() {
        loop.executeSoon { [self] in
            guard !closed else { return }
            if queuedBytes == 0 { return teardown(.closedLocally) }
            closesWhenWritten = true
        }
    }

    /// Closes the connection; the `closed` handler gets ``OSCTCPCloseReason/closedLocally``.
    public func close() {
        loop.executeSoon { [self] in teardown(.closedLocally) }
    }

    private func readable() {
        var reads = 0
        // Reading a bounded amount per event keeps one busy peer from starving the others; the
        // source fires again while bytes remain.
        while !closed && reads < 16 {
            reads += 1
            var outcome: Result<Int?, OSCSystemError> = .success(nil)
            let fd = fd
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: options.readChunkSize) { target in
                outcome = Result { () throws(OSCSystemError) -> Int? in
                    try SystemCall.run("recv") { recv(fd, target.baseAddress, target.count, 0) }
                }
                if case .success(let count?) = outcome {
                    bytesRead.add(count, ordering: .relaxed)
                    return count
                }
                return 0
            }
            switch outcome {
            case .failure(let error):
                teardown(.systemError(error))
                return
            case .success(nil):
                return
            case .success(0):
                teardown(.peerClosed)
                return
            case .success:
                process()
                accountBufferedBytes()
            }
        }
    }

    /// Reports the unfinished input after a read, and gives back a large frame's storage.
    private func accountBufferedBytes() {
        guard !closed else { return }
        let now = mode == .osc ? buffer.readableBytes : 0
        if now == 0 { buffer.releaseStorage(keeping: 2 * options.readChunkSize) }
        let delta = now - bufferedBytes
        guard delta != 0 else { return }
        bufferedBytes = now
        onBufferedBytesChange?(self, delta)
    }

    private func process() {
        if mode == .detecting {
            guard buffer.readableBytes > 0 else { return }
            let first = buffer.withUnsafeReadableBytes { bytes in
                firstBytes = Array(bytes.prefix(8))
                return bytes[0]
            }
            if let detected = OSCFraming.detect(firstByte: first) {
                framing = detected
                decoder = OSCFramingDecoder(framing: detected, maximumFrameLength: options.maximumFrameLength)
                mode = .osc
            } else {
                mode = .raw
                guard let otherProtocol = handlers.otherProtocol else {
                    teardown(.otherProtocolRefused)
                    return
                }
                buffer.withUnsafeReadableBytes { otherProtocol(self, $0) }
                buffer.clear()
                return
            }
        }
        switch mode {
        case .detecting:
            return
        case .raw:
            lastActivity = DispatchTime.now().uptimeNanoseconds
            buffer.withUnsafeReadableBytes { bytes in rawHandler?(bytes) }
            buffer.clear()
        case .osc:
            guard var decoder else { return }
            defer { self.decoder = decoder }
            // The connection's activity is noted once per read, not once per frame: a read of
            // many small frames then costs one clock read.
            var delivered = false
            defer { if delivered { markActive() } }
            do {
                while !closed, let frame = try decoder.decode(buffer: &buffer) {
                    delivered = true
                    frame.withUnsafeBytes { handlers.frame($0, self) }
                }
            } catch {
                teardown(.framingError(error))
            }
        }
    }

    private func markActive() {
        if !hasCompletedFrame {
            hasCompletedFrame = true
            firstFrameTimer?.cancel()
            firstFrameTimer = nil
        }
        lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    private func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        lastActivity = DispatchTime.now().uptimeNanoseconds
        var offset = 0
        if queuedBytes == 0 {
            switch writeNow(bytes, from: 0) {
            case .failure(let error):
                return teardown(.systemError(error))
            case .success(let written):
                offset = written
            }
            if offset == bytes.count { return }
        }
        let remaining = bytes.count - offset
        guard queuedBytes + remaining <= options.maximumQueuedBytes else {
            return teardown(.writeQueueOverflow)
        }
        queue.append(offset == 0 ? bytes : Array(bytes[offset...]))
        queuedBytes += remaining
        startWriteSource()
    }

    private func writeNow(_ bytes: [UInt8], from offset: Int) -> Result<Int, OSCSystemError> {
        let fd = fd
        return bytes.withUnsafeBytes { all in
            var written = offset
            while written < all.count {
                let rest = UnsafeRawBufferPointer(rebasing: all[written...])
                do throws(OSCSystemError) {
                    guard let count = try SystemCall.run("send", { Socket.sendBytes(fd, rest) }) else {
                        sendsWouldBlock.add(1, ordering: .relaxed)
                        break
                    }
                    written += count
                    bytesWritten.add(count, ordering: .relaxed)
                } catch {
                    return .failure(error)
                }
            }
            return .success(written - offset)
        }
    }

    private func startWriteSource() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: loop.queue)
            source.setEventHandler { [self] in writable() }
            source.setCancelHandler { [self] in descriptorSourceCancelled() }
            pendingCancels += 1
            writeSource = source
        }
        if !writeSourceRunning {
            writeSourceRunning = true
            writeSource?.resume()
        }
    }

    private func writable() {
        while queueHead < queue.count {
            switch writeNow(queue[queueHead], from: headOffset) {
            case .failure(let error):
                return teardown(.systemError(error))
            case .success(let written):
                headOffset += written
                queuedBytes -= written
                if headOffset < queue[queueHead].count { return }
                headOffset = 0
                queueHead += 1
            }
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        if closesWhenWritten { return teardown(.closedLocally) }
        if writeSourceRunning {
            writeSourceRunning = false
            writeSource?.suspend()
        }
    }

    func teardown(_ reason: OSCTCPCloseReason) {
        guard !closed else { return }
        closed = true
        if let writeSource {
            if !writeSourceRunning { writeSource.resume() }
            writeSource.cancel()
        }
        readSource.cancel()
        firstFrameTimer?.cancel()
        firstFrameTimer = nil
        queue = []
        queuedBytes = 0
        buffer = OSCFramingBuffer(capacity: 16)
        if bufferedBytes != 0 {
            let delta = -bufferedBytes
            bufferedBytes = 0
            onBufferedBytesChange?(self, delta)
        }
        onBufferedBytesChange = nil
        handlers.closed?(self, reason)
        detachedFromServer?(self)
        detachedFromServer = nil
        rawHandler = nil
    }

    private func descriptorSourceCancelled() {
        pendingCancels -= 1
        // Both sources watch the descriptor: close it only once neither does.
        if pendingCancels == 0 { Socket.closeDescriptor(fd) }
    }

    /// `tcp 127.0.0.1:50000 -> 127.0.0.1:8000`.
    public var description: String { "tcp \(remoteAddress) -> \(localAddress)" }

    /// `48 bytes written (0 sends would block), 0 read, 0 packets dropped because it had
    /// closed`: how far a stream got, for a diagnostic; any thread may ask.
    public var trafficDescription: String {
        "\(bytesWritten.load(ordering: .relaxed)) bytes written"
            + " (\(sendsWouldBlock.load(ordering: .relaxed)) sends would block), \(bytesRead.load(ordering: .relaxed)) read"
            + ", \(packetsAfterClose.load(ordering: .relaxed)) packets dropped because it had closed"
    }

    public static func == (lhs: OSCTCPConnection, rhs: OSCTCPConnection) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
