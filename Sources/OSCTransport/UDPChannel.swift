import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machinery of a UDP socket on an event loop, shared by ``OSCUDPServer`` and ``OSCUDPClient``.
///
/// Reading happens on the loop; sending happens on the caller's thread, under a lock that also
/// guards closing, so that a descriptor is never used after the cancel handler closed it.
final class UDPChannel: @unchecked Sendable {
    final class SendState: @unchecked Sendable {
        var fd: Int32
        let batch: UDPBatch
        init(fd: Int32, batchSize: Int) {
            self.fd = fd
            batch = UDPBatch(count: batchSize, slotSize: 0)
        }
    }

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
    private let blockingReceiveBuffer = Mutex<[UInt8]>([])
    final class SendLock: Sendable {
        let mutex: Mutex<SendState>
        init(_ state: SendState) { mutex = Mutex(state) }
        func withLock<R, E: Error>(_ body: (SendState) throws(E) -> R) throws(E) -> R {
            try mutex.withLock { (state: inout SendState) throws(E) -> R in try body(state) }
        }
    }
    private let sendState: SendLock
    private let options: OSCUDPOptions
    let counters = Counters()

    /// The receiving side's counters and the sending side's, a cache line apart: the reader thread
    /// and a sending thread each update theirs for every datagram, and on one line each update
    /// took the line away from the other CPU.
    final class Counters: Sendable {
        let received = Atomic<Int>(0)
        let truncated = Atomic<Int>(0)
        let receiveErrors = Atomic<Int>(0)
        private let padding = (0, 0, 0, 0, 0, 0, 0, 0)
        let sent = Atomic<Int>(0)
        let sendsWouldBlock = Atomic<Int>(0)
        let deliveryFailures = Atomic<Int>(0)
        let deliveryFailuresDropped = Atomic<Int>(0)
    }

    /// ICMP reports read from the error queue and not yet handed to the owner on the loop.
    struct PendingFailures {
        var list: [OSCDeliveryFailure] = []
        var scheduled = false
    }

    /// The most reports waiting for the loop; more are dropped and counted, so that a burst of
    /// ICMP errors costs bounded memory however slow the loop is.
    static let pendingFailureLimit = 256
    private let pendingFailures = Mutex(PendingFailures())
    /// Written (release) at the end and read (acquire) at the start of every section locked on
    /// `pendingFailures`, which a sending thread and the loop both take: `Mutex` waits in the
    /// standard library's uninstrumented slow path on Linux, so ThreadSanitizer does not see the
    /// ordering it gives and reports false races; this pair of instrumented accesses shows it.
    private let pendingFailuresFence = Atomic<UInt32>(0)
    /// Set once the owner asked for reports: the socket then has `IP_RECVERR` on.
    private let reportsFailures = Atomic<Bool>(false)

    // Owned by the loop.
    private var handler: (@Sendable (UnsafeRawBufferPointer, OSCSocketAddress) -> Void)?
    private var failureHandler: (@Sendable (OSCDeliveryFailure) -> Void)?
    private var batchEndHandler: (@Sendable () -> Void)?
    private var started = false
    private var closed = false
    private var receiveBatch: UDPBatch?
    /// The reader thread's latest batch size, for its delivery work item (see `runReaderThread`).
    private var pendingCount = 0

    init(
        loop: OSCEventLoop, bindTo address: OSCSocketAddress, connectTo remote: OSCSocketAddress?,
        options: OSCUDPOptions
    ) throws(OSCSystemError) {
        let fd = try Socket.make(family: address.family, type: OSCSocketAddress.datagramType)
        do throws(OSCSystemError) {
            try Self.configure(fd, family: address.family, options: options)
            try Socket.bind(fd, to: address)
            if let remote {
                let result = remote.withSockAddr { pointer, length in connect(fd, pointer, length) }
                if result != 0 { throw OSCSystemError(call: "connect(\(remote))", errno: errno) }
            }
            localAddress = try Socket.localAddress(fd)
        } catch {
            Socket.closeDescriptor(fd)
            throw error
        }
        self.fd = fd
        self.loop = loop
        self.options = options
        family = address.family
        receiveBufferSize = Int(Socket.intOption(fd, SOL_SOCKET, SO_RCVBUF))
        sendState = SendLock(SendState(fd: fd, batchSize: 64))
        blockingSocket = options.reader == .thread && Self.readerThreadAvailable
        if blockingSocket {
            source = nil
            // The reader thread blocks in its receive call; every other call passes MSG_DONTWAIT.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: loop.queue)
        let sendState = sendState
        source.setCancelHandler { Self.closeSocket(sendState) }
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

    private static func closeSocket(_ sendState: SendLock) {
        sendState.withLock { state in
            if state.fd >= 0 { Socket.closeDescriptor(state.fd) }
            state.fd = -1
        }
    }

    private static func configure(_ fd: Int32, family: OSCSocketAddress.Family, options: OSCUDPOptions)
        throws(OSCSystemError)
    {
        if options.receiveBufferSize > 0 {
            let size = Int32(clamping: options.receiveBufferSize)
            #if os(Linux)
                // SO_RCVBUFFORCE passes net.core.rmem_max when the process may; otherwise ask politely.
                if setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, [size], socklen_t(MemoryLayout<Int32>.size)) != 0 {
                    try Socket.setOption(fd, SOL_SOCKET, SO_RCVBUF, size, "setsockopt(SO_RCVBUF)")
                }
            #else
                try Socket.setOption(fd, SOL_SOCKET, SO_RCVBUF, size, "setsockopt(SO_RCVBUF)")
            #endif
        }
        if let size = options.sendBufferSize {
            try Socket.setOption(fd, SOL_SOCKET, SO_SNDBUF, Int32(clamping: size), "setsockopt(SO_SNDBUF)")
        }
        if options.reuseAddress {
            try Socket.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1, "setsockopt(SO_REUSEADDR)")
            try Socket.setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1, "setsockopt(SO_REUSEPORT)")
        }
        if options.broadcast {
            try Socket.setOption(fd, SOL_SOCKET, SO_BROADCAST, 1, "setsockopt(SO_BROADCAST)")
        }
        switch family {
        case .ipv4:
            try Socket.setOption(
                fd, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, options.multicastLoopback ? 1 : 0,
                "setsockopt(IP_MULTICAST_LOOP)")
            try Socket.setOption(
                fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, options.multicastTTL, "setsockopt(IP_MULTICAST_TTL)")
            if let interface = options.multicastInterface,
                let address = OSCSocketAddress(numericHost: interface, port: 0), address.family == .ipv4
            {
                let inAddress = address.withSockAddr { pointer, _ in
                    pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                }
                try Socket.setOption(
                    fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, bytes: inAddress, "setsockopt(IP_MULTICAST_IF)")
            }
        case .ipv6:
            try Socket.setOption(
                fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, options.multicastLoopback ? 1 : 0,
                "setsockopt(IPV6_MULTICAST_LOOP)")
            try Socket.setOption(
                fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, options.multicastTTL, "setsockopt(IPV6_MULTICAST_HOPS)")
        }
    }

    deinit {
        // A running reader thread keeps the channel alive, so only these cases remain.
        guard !closed else { return }
        if let source {
            // A suspended source must be resumed before it can be cancelled.
            if !started { source.resume() }
            source.cancel()
        } else {
            Self.closeSocket(sendState)
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
            if let onFailure {
                failureHandler = onFailure
                // Without IP_RECVERR, Linux drops ICMP errors for a socket that is not connected.
                if (try? UDPErrorQueue.enable(fd, family: family)) != nil {
                    reportsFailures.store(true, ordering: .releasing)
                }
            }
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
            if let source {
                if !started { source.resume() }
                source.cancel()
            } else if started {
                // Wakes the reader thread's receive call (Linux reports ENOTCONN for an unconnected
                // socket but shuts it down all the same); the thread then closes the socket.
                closing.store(true, ordering: .releasing)
                _ = shutdown(fd, Int32(SHUT_RDWR))
            } else {
                Self.closeSocket(sendState)
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
            if !closed { deliver(batch, count: pendingCount) }
        }
        // Asking for a batch costs a failed attempt at a second datagram whenever only one came,
        // which is most of the round-trip time a ping-pong adds. So one datagram is asked for
        // while datagrams come one at a time, and batches while they queue up: when the last
        // call returned more than one, or returned without having had to wait.
        var batching = false
        while !closing.load(ordering: .acquiring) {
            // The only blocking call on this socket (every send passes MSG_DONTWAIT): it waits
            // for one datagram and, when batching, takes what else is queued.
            let started = Self.monotonicNanoseconds()
            let count = batch.receive(fd, waitForOne: true, limit: batching ? batch.count : 1)
            let code = errno
            batching = count > 1 || Self.monotonicNanoseconds() - started < 5_000
            if count < 0 {
                if code == EINTR || code == EAGAIN { continue }
                // A pending ICMP report fails the receive once: its details wait in the error queue.
                if UDPErrorQueue.isReported(code), reportsFailures.load(ordering: .relaxed) {
                    collectFailures(fd)
                    continue
                }
                counters.receiveErrors.add(1, ordering: .relaxed)
                if code == ECONNREFUSED { continue }
                break
            }
            // Zero messages means the socket was shut down by close().
            if count == 0 { break }
            // Runs in place on this thread when the loop is idle, serialised with the loop's work.
            pendingCount = count
            loop.queue.sync(execute: delivery)
        }
        Self.closeSocket(sendState)
    }

    /// Waits on the caller's thread for one datagram; for sockets without a reader.
    func receive(timeoutNanoseconds: Int) throws(OSCSystemError) -> OSCDatagram? {
        guard !readerRequested.load(ordering: .relaxed) else {
            throw OSCSystemError(call: "recvmsg (a reader was started)", errno: EBUSY)
        }
        let fd = sendState.withLock { $0.fd }
        guard fd >= 0 else { throw OSCSystemError(call: "recvmsg", errno: EBADF) }
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
            var received: Int
            repeat {
                received = buffer.withUnsafeMutableBytes { bytes in
                    withUnsafeMutablePointer(to: &storage) { pointer in
                        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                            recvfrom(fd, bytes.baseAddress, bytes.count, Int32(MSG_TRUNC), address, &length)
                        }
                    }
                }
            } while received < 0 && errno == EINTR
            if received < 0 {
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK { return nil }
                throw OSCSystemError(call: "recvfrom", errno: code)
            }
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
        while !closed {
            let count: Int
            do {
                guard let received = try SystemCall.run("recvmmsg", { batch.receive(fd) }) else {
                    // Woken with nothing to read: the socket polls POLLERR while its error queue
                    // holds reports (a send may have taken the pending error), so read them now or
                    // the source fires again at once.
                    if woken, reportsFailures.load(ordering: .relaxed) { collectFailures(fd) }
                    return
                }
                count = received
                woken = false
            } catch {
                if UDPErrorQueue.isReported(error.errno), reportsFailures.load(ordering: .relaxed) {
                    collectFailures(fd)
                    continue
                }
                counters.receiveErrors.add(1, ordering: .relaxed)
                // A connected socket reports an ICMP error once; keep reading what else is queued.
                if error.errno == ECONNREFUSED { continue }
                return
            }
            if count == 0 { return }
            deliver(batch, count: count)
        }
    }

    private func deliver(_ batch: UDPBatch, count: Int) {
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
        if let batchEndHandler, !closed { batchEndHandler() }
    }

    /// Reads the error queue and hands its reports to the owner on the loop.
    private func collectFailures(_ fd: Int32) {
        var found: [OSCDeliveryFailure] = []
        UDPErrorQueue.read(fd) { found.append($0) }
        guard !found.isEmpty else { return }
        counters.deliveryFailures.add(found.count, ordering: .relaxed)
        let schedule = withPendingFailures { pending -> Bool in
            let room = max(Self.pendingFailureLimit - pending.list.count, 0)
            if found.count > room {
                counters.deliveryFailuresDropped.add(found.count - room, ordering: .relaxed)
            }
            pending.list.append(contentsOf: found.prefix(room))
            if pending.scheduled { return false }
            pending.scheduled = true
            return true
        }
        if schedule {
            loop.execute { [self] in deliverFailures() }
        }
    }

    private func withPendingFailures<R>(_ body: (inout PendingFailures) -> R) -> R {
        pendingFailures.withLock { pending in
            let generation = pendingFailuresFence.load(ordering: .acquiring)
            defer { pendingFailuresFence.store(generation &+ 1, ordering: .releasing) }
            return body(&pending)
        }
    }

    private func deliverFailures() {
        let list = withPendingFailures { pending -> [OSCDeliveryFailure] in
            pending.scheduled = false
            defer { pending.list.removeAll() }
            return pending.list
        }
        guard !closed, let failureHandler else { return }
        for failure in list { failureHandler(failure) }
    }

    /// Runs a send; if it failed only because an ICMP report was pending (which the kernel returns
    /// from the next call on the socket, whatever its destination, without sending), reads the
    /// report and sends again.
    @inline(__always)
    private func sendRetryingReported<R>(_ fd: Int32, _ body: () throws(OSCSystemError) -> R?)
        throws(OSCSystemError) -> R?
    {
        do {
            return try body()
        } catch  where UDPErrorQueue.isReported(error.errno) && reportsFailures.load(ordering: .relaxed) {
            collectFailures(fd)
            return try body()
        }
    }

    func join(group: OSCSocketAddress, interface: OSCSocketAddress?, leave: Bool) throws(OSCSystemError) {
        try sendState.withLock { (state) throws(OSCSystemError) in
            guard state.fd >= 0 else { throw OSCSystemError(call: "setsockopt(IP_ADD_MEMBERSHIP)", errno: EBADF) }
            switch group.family {
            case .ipv4:
                var request = ip_mreq()
                request.imr_multiaddr = group.withSockAddr { pointer, _ in
                    pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                }
                if let interface, interface.family == .ipv4 {
                    request.imr_interface = interface.withSockAddr { pointer, _ in
                        pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    }
                }
                try Socket.setOption(
                    state.fd, Int32(IPPROTO_IP), leave ? IP_DROP_MEMBERSHIP : IP_ADD_MEMBERSHIP, bytes: request,
                    leave ? "setsockopt(IP_DROP_MEMBERSHIP)" : "setsockopt(IP_ADD_MEMBERSHIP)")
            case .ipv6:
                var request = ipv6_mreq()
                request.ipv6mr_multiaddr = group.withSockAddr { pointer, _ in
                    pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                }
                request.ipv6mr_interface = 0
                try Socket.setOption(
                    state.fd, Int32(IPPROTO_IPV6), leave ? IPV6_LEAVE_GROUP : IPV6_JOIN_GROUP, bytes: request,
                    leave ? "setsockopt(IPV6_LEAVE_GROUP)" : "setsockopt(IPV6_JOIN_GROUP)")
            }
        }
    }

    /// Sends one datagram; `false` if the send buffer is full and it was dropped.
    func send(_ bytes: UnsafeRawBufferPointer, to address: OSCSocketAddress?) throws(OSCSystemError) -> Bool {
        guard let address else {
            return try sendConnected(bytes)
        }
        let sent = try sendState.withLock { (state) throws(OSCSystemError) -> Int? in
            let fd = state.fd
            guard fd >= 0 else { throw OSCSystemError(call: "sendto", errno: EBADF) }
            return try sendRetryingReported(fd) { () throws(OSCSystemError) -> Int? in
                try SystemCall.run("sendto") {
                    address.withSockAddr { pointer, length in
                        sendto(fd, bytes.baseAddress, bytes.count, Socket.dontWait, pointer, length)
                    }
                }
            }
        }
        return counted(sent)
    }

    /// Sends one datagram on the connected socket: no optional address to unwrap or capture, which
    /// copied its 128-byte `sockaddr_storage` on every send.
    func sendConnected(_ bytes: UnsafeRawBufferPointer) throws(OSCSystemError) -> Bool {
        let sent = try sendState.withLock { (state) throws(OSCSystemError) -> Int? in
            let fd = state.fd
            guard fd >= 0 else { throw OSCSystemError(call: "send", errno: EBADF) }
            return try SystemCall.run("send") { Socket.sendBytes(fd, bytes) }
        }
        return counted(sent)
    }

    @inline(__always)
    private func counted(_ sent: Int?) -> Bool {
        if sent == nil {
            counters.sendsWouldBlock.add(1, ordering: .relaxed)
            return false
        }
        counters.sent.add(1, ordering: .relaxed)
        return true
    }

    func send(array: [UInt8], to address: OSCSocketAddress?) throws(OSCSystemError) -> Bool {
        // `withUnsafeBytes` rethrows untyped errors: the typed one comes out in a `Result`, with no cast.
        let result = array.withUnsafeBytes { bytes -> Result<Bool, OSCSystemError> in
            do throws(OSCSystemError) {
                return .success(try send(bytes, to: address))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Sends many datagrams, with `sendmmsg` where it exists; returns how many left.
    func send(_ datagrams: [[UInt8]], to address: OSCSocketAddress?) throws(OSCSystemError) -> Int {
        if UDPBatch.sendMultiple == nil {
            var sent = 0
            for datagram in datagrams {
                guard try send(array: datagram, to: address) else { break }
                sent += 1
            }
            return sent
        }
        var total = 0
        var next = 0
        while next < datagrams.count {
            let sentNow = try sendState.withLock { (state) throws(OSCSystemError) -> Int in
                let fd = state.fd
                guard fd >= 0 else { throw OSCSystemError(call: "sendmmsg", errno: EBADF) }
                let batch = state.batch
                let count = min(batch.count, datagrams.count - next)
                guard let sendMultiple = UDPBatch.sendMultiple else { return 0 }
                var destination = address?.storage ?? sockaddr_storage()
                let destinationLength = address?.length ?? 0
                return try withUnsafeMutablePointer(to: &destination) { (name) throws(OSCSystemError) -> Int in
                    // The iovecs point into the caller's arrays, which stay alive and unchanged for this call.
                    for slot in 0..<count {
                        datagrams[next + slot].withUnsafeBytes { bytes in
                            batch.iovecs[slot] = iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
                        }
                        let header = batch.header(slot)
                        header.pointee.msg_name = address == nil ? nil : UnsafeMutableRawPointer(name)
                        header.pointee.msg_namelen = destinationLength
                    }
                    return try sendRetryingReported(fd) { () throws(OSCSystemError) -> Int? in
                        try SystemCall.run("sendmmsg") {
                            Int(sendMultiple(fd, batch.headers, UInt32(count), Socket.dontWait))
                        }
                    }
                        ?? 0
                }
            }
            total += sentNow
            next += sentNow
            if sentNow == 0 {
                counters.sendsWouldBlock.add(datagrams.count - next, ordering: .relaxed)
                break
            }
        }
        counters.sent.add(total, ordering: .relaxed)
        return total
    }

    var statistics: OSCUDPStatistics {
        OSCUDPStatistics(
            received: counters.received.load(ordering: .relaxed),
            truncated: counters.truncated.load(ordering: .relaxed),
            receiveErrors: counters.receiveErrors.load(ordering: .relaxed),
            sent: counters.sent.load(ordering: .relaxed),
            sendsWouldBlock: counters.sendsWouldBlock.load(ordering: .relaxed),
            deliveryFailures: counters.deliveryFailures.load(ordering: .relaxed),
            deliveryFailuresDropped: counters.deliveryFailuresDropped.load(ordering: .relaxed))
    }
}
