#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Preallocated message headers for receiving or sending many datagrams in one system call.
///
/// Linux's `recvmmsg` and `sendmmsg` take an array of `struct mmsghdr` (a `msghdr` followed by
/// the byte count). Glibc declares them only under `_GNU_SOURCE`, which Swift's Glibc module does
/// not set, so the functions are looked up with `dlsym` and the array is laid out by hand; where
/// they are missing, one datagram per call is used.
final class UDPBatch: @unchecked Sendable {
    let count: Int
    let slotSize: Int
    let data: UnsafeMutableRawPointer
    let iovecs: UnsafeMutablePointer<iovec>
    let names: UnsafeMutablePointer<sockaddr_storage>
    let headers: UnsafeMutableRawPointer

    static let lengthOffset = MemoryLayout<msghdr>.size
    static let headerStride =
        (MemoryLayout<msghdr>.size + 4 + MemoryLayout<msghdr>.alignment - 1)
        & ~(MemoryLayout<msghdr>.alignment - 1)

    typealias MultipleMessageCall =
        @convention(c) (Int32, UnsafeMutableRawPointer, UInt32, Int32, UnsafeRawPointer?)
        -> Int32
    typealias SendMultipleCall = @convention(c) (Int32, UnsafeMutableRawPointer, UInt32, Int32) -> Int32

    static let receiveMultiple: MultipleMessageCall? = {
        #if os(Linux)
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "recvmmsg") else { return nil }
            return unsafeBitCast(symbol, to: MultipleMessageCall.self)
        #else
            return nil
        #endif
    }()

    static let sendMultiple: SendMultipleCall? = {
        #if os(Linux)
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "sendmmsg") else { return nil }
            return unsafeBitCast(symbol, to: SendMultipleCall.self)
        #else
            return nil
        #endif
    }()

    /// - Parameters:
    ///   - count: datagrams per call.
    ///   - slotSize: bytes per datagram when receiving; 0 when the batch only sends caller buffers.
    init(count: Int, slotSize: Int) {
        self.count = max(count, 1)
        self.slotSize = slotSize
        data = UnsafeMutableRawPointer.allocate(byteCount: max(self.count * slotSize, 1), alignment: 16)
        iovecs = .allocate(capacity: self.count)
        names = .allocate(capacity: self.count)
        headers = .allocate(byteCount: self.count * Self.headerStride, alignment: 16)
        headers.initializeMemory(as: UInt8.self, repeating: 0, count: self.count * Self.headerStride)
        for index in 0..<self.count {
            iovecs[index] = iovec(iov_base: data + index * slotSize, iov_len: slotSize)
            names[index] = sockaddr_storage()
            let header = header(index)
            header.pointee.msg_iov = iovecs + index
            header.pointee.msg_iovlen = 1
            header.pointee.msg_name = UnsafeMutableRawPointer(names + index)
            header.pointee.msg_namelen = socklen_t(MemoryLayout<sockaddr_storage>.size)
        }
    }

    deinit {
        data.deallocate()
        iovecs.deallocate()
        names.deallocate()
        headers.deallocate()
    }

    @inline(__always)
    func header(_ index: Int) -> UnsafeMutablePointer<msghdr> {
        (headers + index * Self.headerStride).assumingMemoryBound(to: msghdr.self)
    }

    @inline(__always)
    func length(_ index: Int) -> Int {
        Int((headers + index * Self.headerStride + Self.lengthOffset).load(as: UInt32.self))
    }

    /// Receives up to ``count`` datagrams; returns how many, or -1 with `errno` set.
    /// - Parameters:
    ///   - waitForOne: block until one datagram is there (on a blocking socket), then take what
    ///     else is queued without waiting.
    ///   - limit: receive at most this many (at most ``count``).
    ///   - dontWait: return at once (-1 with `EAGAIN`) if nothing is queued, even on a blocking
    ///     socket.
    func receive(_ fd: Int32, waitForOne: Bool = false, limit: Int? = nil, dontWait: Bool = false) -> Int {
        let count = min(limit ?? self.count, self.count)
        for index in 0..<count {
            let header = header(index)
            header.pointee.msg_namelen = socklen_t(MemoryLayout<sockaddr_storage>.size)
            header.pointee.msg_flags = 0
            iovecs[index].iov_len = slotSize
        }
        let noWait = dontWait ? Int32(MSG_DONTWAIT) : 0
        if count > 1, let receiveMultiple = Self.receiveMultiple {
            #if os(Linux)
                let flags = (waitForOne ? Int32(MSG_WAITFORONE) : 0) | noWait
            #else
                let flags = noWait
            #endif
            return Int(receiveMultiple(fd, headers, UInt32(count), flags, nil))
        }
        let received = recvmsg(fd, header(0), noWait)
        if received >= 0 {
            (headers + Self.lengthOffset).storeBytes(of: UInt32(received), as: UInt32.self)
            return 1
        }
        return -1
    }

    /// Whether datagram `index` was longer than its slot and was cut.
    func truncated(_ index: Int) -> Bool {
        header(index).pointee.msg_flags & Int32(MSG_TRUNC) != 0
    }

    func sender(_ index: Int) -> OSCSocketAddress? {
        OSCSocketAddress(storage: names[index], length: header(index).pointee.msg_namelen)
    }

    func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: data + index * slotSize, count: min(length(index), slotSize))
    }
}
