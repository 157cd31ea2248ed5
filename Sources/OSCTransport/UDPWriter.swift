import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sending side of a UDP channel: its descriptor, which is closed under the same lock so that
/// no send ever uses a number the kernel has given to another file, the headers of `sendmmsg`,
/// and the counting of what went and what the full send buffer dropped.
///
/// Sends run on the caller's thread (never blocking: `MSG_DONTWAIT`); the reader and the cancel
/// handler close the descriptor through ``closeDescriptor()``.
final class UDPWriter: Sendable {
    /// What the lock guards: a class, so that the lock's body works on it in place.
    private final class State: @unchecked Sendable {
        var fd: Int32
        let batch: UDPBatch
        init(fd: Int32, batchSize: Int) {
            self.fd = fd
            batch = UDPBatch(count: batchSize, slotSize: 0)
        }
    }

    private let state: Locked<State>
    private let counters: UDPCounters
    private let reports: UDPFailureReports

    init(fd: Int32, counters: UDPCounters, reports: UDPFailureReports) {
        state = Locked(State(fd: fd, batchSize: 64))
        self.counters = counters
        self.reports = reports
    }

    /// Runs `body` with the open descriptor, under the lock; `EBADF` once it is closed.
    func withDescriptor<R>(_ call: StaticString, _ body: (Int32) throws(OSCSystemError) -> R) throws(OSCSystemError)
        -> R
    {
        try state.withLock { (state: inout State) throws(OSCSystemError) -> R in
            guard state.fd >= 0 else { throw OSCSystemError(call: call.description, errno: EBADF) }
            return try body(state.fd)
        }
    }

    /// Closes the descriptor, once.
    func closeDescriptor() {
        state.withLock { state in
            if state.fd >= 0 { Socket.closeDescriptor(state.fd) }
            state.fd = -1
        }
    }

    /// Sends one datagram to `address`, or on the connected socket; `false` if the send buffer
    /// is full and it was dropped.
    func send(_ bytes: UnsafeRawBufferPointer, to address: OSCSocketAddress?) throws(OSCSystemError) -> Bool {
        guard let address else { return try sendConnected(bytes) }
        let sent = try withDescriptor("sendto") { (fd) throws(OSCSystemError) -> Int? in
            try reports.retryingReported(fd) { () throws(OSCSystemError) -> Int? in
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
        let sent = try withDescriptor("send") { (fd) throws(OSCSystemError) -> Int? in
            try SystemCall.run("send") { Socket.sendBytes(fd, bytes) }
        }
        return counted(sent)
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
        guard let sendMultiple = UDPBatch.sendMultiple else {
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
            let sentNow = try state.withLock { (state: inout State) throws(OSCSystemError) -> Int in
                let fd = state.fd
                guard fd >= 0 else { throw OSCSystemError(call: "sendmmsg", errno: EBADF) }
                let batch = state.batch
                let count = min(batch.count, datagrams.count - next)
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
                    return try reports.retryingReported(fd) { () throws(OSCSystemError) -> Int? in
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

    @inline(__always)
    private func counted(_ sent: Int?) -> Bool {
        if sent == nil {
            counters.sendsWouldBlock.add(1, ordering: .relaxed)
            return false
        }
        counters.sent.add(1, ordering: .relaxed)
        return true
    }
}
