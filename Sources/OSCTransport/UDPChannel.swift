import Dispatch
import Locking
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reading side of a UDP socket on an event loop, shared by ``OSCUDPServer`` and
/// ``OSCUDPClient``, with the parts it hands work to, as swift-nio splits its datagram channel:
///
/// - the socket's options are set on the socket (`Socket.configureDatagram`, `setMembership`);
/// - reading is here: a dispatch source that drains the socket with `recvmmsg` on the loop, or a
///   reader thread that blocks in it and hands each batch to the loop (``OSCUDPOptions/reader``);
///   or, without either, one blocking receive at a time (``receive(timeoutNanoseconds:)``);
/// - writing is ``UDPWriter``'s, on the caller's thread, under the lock that also guards closing;
/// - ICMP reports are ``UDPFailureReports``'.
final class UDPChannel: @unchecked Sendable {
    let loop: OSCEventLoop
    let localAddress: OSCSocketAddress
    let family: OSCSocketAddress.Family
    let receiveBufferSize: Int
    private let fd: Int32
    private let source: DispatchSourceRead?
    private let closing = Atomic<Bool>(false)
    // Set once a reader (source or thread) has been asked for; blocking receives are refused then.
    private let readerRequested = Atomic<Bool>(false)
    private let blockingSocket: Bool
    private let receiveTimeout = Atomic<Int>(-1)
    private let blockingReceiveBuffer = Locked<[UInt8]>([])
    private let options: OSCUDPOptions
    private let counters = UDPCounters()
    private let reports: UDPFailureReports
    private let writer: UDPWriter

    // Owned by the loop.
    private var handler: (@Sendable (UnsafeRawBufferPointer, OSCSocketAddress) -> Void)?
    private var batchEndHandler: (@Sendable () -> Void)?
    private var started = false
    private var closed = false
    private var receiveBatch: UDPBatch?
    /// The reader thread's latest batch size, for its delivery work item (see `runReaderThread`).
    private var pendingCount = 0
    /// Whether that delivery ends a batch (``OSCUDPOptions/fullBatchesPerEnd``).
    private var pendingEndsBatch = true

    init(
        loop: OSCEventLoop, bindTo address: OSCSocketAddress, connectTo remote: OSCSocketAddress?,
        options: OSCUDPOptions
    ) throws(OSCSystemError) {
        let fd = try Socket.make(family: address.family, type: OSCSocketAddress.datagramType)
        let blocking = options.reader == .thread && Self.readerThreadAvailable
        do throws(OSCSystemError) {
            try Socket.configureDatagram(fd, family: address.family, options: options)
            try Socket.bind(fd, to: address)
            if let remote {
                // A UDP connect only sets the peer: it never blocks.
                try SystemCall.require("connect") {
                    remote.withSockAddr { pointer, length in connect(fd, pointer, length) }
                }
            }
            localAddress = try Socket.localAddress(fd)
            if blocking {
                // The reader thread blocks in its receive call; every other call passes MSG_DONTWAIT.
                let flags = try SystemCall.require("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
                try SystemCall.require("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
            }
        } catch {
            Socket.closeDescriptor(fd)
            throw error
        }
        self.fd = fd
        self.loop = loop
        self.options = options
        family = address.family
        receiveBufferSize = Int(Socket.intOption(fd, SOL_SOCKET, SO_RCVBUF))
        reports = UDPFailureReports(loop: loop, counters: counters)
        writer = UDPWriter(fd: fd, counters: counters, reports: reports)
        blockingSocket = blocking
        if blockingSocket {
            source = nil
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: loop.queue)
        let writer = writer
        source.setCancelHandler { writer.closeDescriptor() }
        self.source = source
        source.setEventHandler { [weak self] in self?.drain() }
    }

    #if os(Linux)
        static let readerThreadAvailable = UDPBatch.receiveMultiple != nil
    #else
        static let readerThreadAvailable = false
    #endif

    static func monotonicNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    deinit {
        // A running reader thread keeps the channel alive, so only these cases remain.
        guard !closed else { return }
        if let source {
            // A suspended source must be resumed before it can be cancelled.
            if !started { source.resume() }
            source.cancel()
        } else {
            writer.closeDescriptor()
        }
    }

    func start(
        _ handler: @escaping @Sendable (UnsafeRawBufferPointer, OSCSocketAddress) -> Void,
        onBatchEnd: (@Sendable () -> Void)? = nil,
        onFailure: (@Sendable (OSCDeliveryFailure) -> Void)? = nil
    ) {
        readerRequested.store(true, ordering: .relaxed)
        loop.executeSoon { [self] in
            guard !started, !closed else { return }
            self.handler = handler
            batchEndHandler = onBatchEnd
            if let onFailure { reports.enable(fd, family: family, handler: onFailure) }
            receiveBatch = UDPBatch(count: options.batchSize, slotSize: options.maximumDatagramSize)
            if let source {
                started = true
                source.resume()
            } else {
                started = startReaderThread()
            }
        }
    }

    func close() {
        loop.executeSoon { [self] in
            guard !closed else { return }
            closed = true
            handler = nil
            reports.stop()
            if let source {
                if !started { source.resume() }
                source.cancel()
            } else if started {
                // Wakes the reader thread's receive call (Linux reports ENOTCONN for an unconnected
                // socket but shuts it down all the same); the thread then closes the socket.
                closing.store(true, ordering: .releasing)
                _ = try? SystemCall.run("shutdown") { shutdown(fd, Int32(SHUT_RDWR)) }
            } else {
                writer.closeDescriptor()
            }
        }
    }

    private func startReaderThread() -> Bool {
        let retained = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let channel = Unmanaged<UDPChannel>.fromOpaque(argument!).takeRetainedValue()
                channel.runReaderThread()
                return nil
            }, retained)
        guard result == 0 else {
            Unmanaged<UDPChannel>.fromOpaque(retained).release()
            counters.receiveErrors.add(1, ordering: .relaxed)
            return false
        }
        pthread_detach(thread)
        return true
    }

    private func runReaderThread() {
        guard let batch = receiveBatch else { return }
        // One work item for the thread's life: `queue.sync` with a closure wrapped it in a new
        // block (allocated and released) on every hop into the loop; a work item's block is made once.
        // The count is handed over through `pendingCount`, written before each `sync` and read inside it.
        let delivery = DispatchWorkItem { [self] in
            if !closed { deliver(batch, count: pendingCount, endsBatch: pendingEndsBatch) }
        }
        let batchEnd = DispatchWorkItem { [self] in
            if !closed { endBatch() }
        }
        // Asking for a batch costs a failed attempt at a second datagram whenever only one came,
        // which is most of the round-trip time a ping-pong adds. So one datagram is asked for
        // while datagrams come one at a time, and batches while they queue up: when the last
        // call returned more than one, or returned without having had to wait. The first call
        // takes a batch: what queued before the reader started is read as one.
        var batching = true
        // Full calls delivered since the last end of a batch: while it is not 0, the next call
        // does not wait, and finding nothing ends the batch.
        var fullCalls = 0
        while !closing.load(ordering: .acquiring) {
            // The only blocking call on this socket (every send passes MSG_DONTWAIT): it waits
            // for one datagram and, when batching, takes what else is queued.
            let started = Self.monotonicNanoseconds()
            let count = batch.receive(
                fd, waitForOne: true, limit: batching ? batch.count : 1, dontWait: fullCalls > 0)
            let code = errno
            batching = count > 1 || Self.monotonicNanoseconds() - started < 5_000
            if count < 0, fullCalls > 0, code == EAGAIN || code == EWOULDBLOCK {
                fullCalls = 0
                loop.queue.sync(execute: batchEnd)
                continue
            }
            if count < 0 {
                if code == EINTR || code == EAGAIN { continue }
                // A pending ICMP report fails the receive once: its details wait in the error queue.
                if UDPErrorQueue.isReported(code), reports.isEnabled {
                    reports.collect(fd)
                    continue
                }
                counters.receiveErrors.add(1, ordering: .relaxed)
                if code == ECONNREFUSED { continue }
                break
            }
            // Zero messages means the socket was shut down by close().
            if count == 0 { break }
            fullCalls = Self.fullCallsInARow(
                after: count, of: batch.count, limit: options.fullBatchesPerEnd, following: fullCalls)
            // Runs in place on this thread when the loop is idle, serialised with the loop's work.
            pendingCount = count
            pendingEndsBatch = fullCalls == 0
            loop.queue.sync(execute: delivery)
        }
        writer.closeDescriptor()
    }

    /// Waits on the caller's thread for one datagram; for sockets without a reader.
    func receive(timeoutNanoseconds: Int) throws(OSCSystemError) -> OSCDatagram? {
        guard !readerRequested.load(ordering: .relaxed) else {
            throw OSCSystemError(call: "recvmsg (a reader was started)", errno: EBUSY)
        }
        let fd = try writer.withDescriptor("recvmsg") { $0 }
        if blockingSocket {
            // One system call per datagram, as a plain blocking socket: the wait is SO_RCVTIMEO,
            // set again only when the caller changes it.
            if receiveTimeout.exchange(timeoutNanoseconds, ordering: .relaxed) != timeoutNanoseconds {
                let time = timeval(
                    tv_sec: timeoutNanoseconds / 1_000_000_000, tv_usec: (timeoutNanoseconds % 1_000_000_000) / 1000)
                try Socket.setOption(fd, SOL_SOCKET, SO_RCVTIMEO, bytes: time, "setsockopt(SO_RCVTIMEO)")
            }
        } else {
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: (timeoutNanoseconds + 999_999) / 1_000_000)
            guard let ready = try SystemCall.run("poll", { poll(&watched, 1, milliseconds) }), ready > 0 else {
                return nil
            }
        }
        let maximum = options.maximumDatagramSize
        return try blockingReceiveBuffer.withLock { (buffer) throws(OSCSystemError) -> OSCDatagram? in
            if buffer.count != maximum { buffer = [UInt8](repeating: 0, count: maximum) }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let received = try SystemCall.run("recvfrom") {
                buffer.withUnsafeMutableBytes { bytes in
                    withUnsafeMutablePointer(to: &storage) { pointer in
                        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                            recvfrom(fd, bytes.baseAddress, bytes.count, Int32(MSG_TRUNC), address, &length)
                        }
                    }
                }
            }
            // A timeout (SO_RCVTIMEO) is EAGAIN: no datagram.
            guard let received else { return nil }
            guard received <= maximum else {
                counters.truncated.add(1, ordering: .relaxed)
                return nil
            }
            guard let sender = OSCSocketAddress(storage: storage, length: length) else { return nil }
            counters.received.add(1, ordering: .relaxed)
            return OSCDatagram(bytes: Array(buffer[0..<received]), sender: sender)
        }
    }

    /// Reads and delivers datagrams until `EAGAIN`.
    private func drain() {
        guard let batch = receiveBatch, handler != nil, !closed else { return }
        var woken = true
        var fullCalls = 0
        // Whatever ends the drain ends a batch that full calls left open.
        defer { if fullCalls > 0 { endBatch() } }
        while !closed {
            let count: Int
            do {
                guard let received = try SystemCall.run("recvmmsg", { batch.receive(fd) }) else {
                    // Woken with nothing to read: the socket polls POLLERR while its error queue
                    // holds reports (a send may have taken the pending error), so read them now or
                    // the source fires again at once.
                    if woken, reports.isEnabled { reports.collect(fd) }
                    return
                }
                count = received
                woken = false
            } catch {
                if UDPErrorQueue.isReported(error.errno), reports.isEnabled {
                    reports.collect(fd)
                    continue
                }
                counters.receiveErrors.add(1, ordering: .relaxed)
                // A connected socket reports an ICMP error once; keep reading what else is queued.
                if error.errno == ECONNREFUSED { continue }
                return
            }
            if count == 0 { return }
            fullCalls = Self.fullCallsInARow(
                after: count, of: batch.count, limit: options.fullBatchesPerEnd, following: fullCalls)
            deliver(batch, count: count, endsBatch: fullCalls == 0)
        }
    }

    private func deliver(_ batch: UDPBatch, count: Int, endsBatch: Bool) {
        guard let handler else { return }
        var delivered = 0
        for index in 0..<count {
            if batch.truncated(index) {
                counters.truncated.add(1, ordering: .relaxed)
                continue
            }
            guard let sender = batch.sender(index) else { continue }
            handler(batch.bytes(index), sender)
            delivered += 1
        }
        counters.received.add(delivered, ordering: .relaxed)
        if endsBatch { endBatch() }
    }

    /// The full calls in a row after a call that returned `count` datagrams: one more if it
    /// filled every slot and the batch may grow, else 0 (the call ends the batch).
    private static func fullCallsInARow(after count: Int, of slots: Int, limit: Int, following previous: Int) -> Int {
        count == slots && previous + 1 < limit ? previous + 1 : 0
    }

    /// Reports the end of a batch; on the loop.
    private func endBatch() {
        if let batchEndHandler, !closed { batchEndHandler() }
    }

    func join(group: OSCSocketAddress, interface: OSCSocketAddress?, leave: Bool) throws(OSCSystemError) {
        try writer.withDescriptor(leave ? "setsockopt(leave)" : "setsockopt(join)") { (fd) throws(OSCSystemError) in
            try Socket.setMembership(fd, group: group, interface: interface, leave: leave)
        }
    }

    /// Sends one datagram; `false` if the send buffer is full and it was dropped.
    func send(_ bytes: UnsafeRawBufferPointer, to address: OSCSocketAddress?) throws(OSCSystemError) -> Bool {
        try writer.send(bytes, to: address)
    }

    /// Sends one datagram on the connected socket.
    func sendConnected(_ bytes: UnsafeRawBufferPointer) throws(OSCSystemError) -> Bool {
        try writer.sendConnected(bytes)
    }

    func send(array: [UInt8], to address: OSCSocketAddress?) throws(OSCSystemError) -> Bool {
        try writer.send(array: array, to: address)
    }

    /// Sends many datagrams, with `sendmmsg` where it exists; returns how many left.
    func send(_ datagrams: [[UInt8]], to address: OSCSocketAddress?) throws(OSCSystemError) -> Int {
        try writer.send(datagrams, to: address)
    }

    var statistics: OSCUDPStatistics { counters.statistics }
}
