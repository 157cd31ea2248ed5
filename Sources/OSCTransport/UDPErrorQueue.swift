#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a UDP socket's error queue (`recvmsg` with `MSG_ERRQUEUE`): the ICMP errors that
/// `IP_RECVERR` and `IPV6_RECVERR` keep for a socket that is not connected.
///
/// The kernel bounds the queue by the socket's receive buffer; each read here takes at most
/// ``maximumPerRead`` entries, so that a flood of ICMP errors cannot hold the reader for long.
enum UDPErrorQueue {
    /// The most entries one ``read(_:into:)`` takes; the rest stay queued for the next wake-up.
    static let maximumPerRead = 64

    #if os(Linux)
        // From <linux/errqueue.h>, which Glibc's module does not import.
        private static let originICMP: UInt8 = 2
        private static let originICMP6: UInt8 = 3
        // IPPROTO_IP's IP_RECVERR and IPPROTO_IPV6's IPV6_RECVERR, as cmsg types.
        private static let ipRecvErr = Int32(IP_RECVERR)
        private static let ipv6RecvErr = Int32(IPV6_RECVERR)
    #endif

    /// Asks the kernel to queue ICMP errors of both families (an IPv6 socket also carries IPv4
    /// through mapped addresses, whose errors are IPv4's).
    static func enable(_ fd: Int32, family: OSCSocketAddress.Family) throws(OSCSystemError) {
        #if os(Linux)
            try Socket.setOption(fd, Int32(IPPROTO_IP), ipRecvErr, 1, "setsockopt(IP_RECVERR)")
            if family == .ipv6 {
                try Socket.setOption(fd, Int32(IPPROTO_IPV6), ipv6RecvErr, 1, "setsockopt(IPV6_RECVERR)")
            }
        #endif
    }

    /// Whether `code` is an error that a pending ICMP report makes a system call return: the call
    /// itself did nothing, and the report waits in the error queue.
    static func isReported(_ code: Int32) -> Bool {
        code == ECONNREFUSED || code == EHOSTUNREACH || code == ENETUNREACH || code == EHOSTDOWN
            || code == EPROTO || code == EMSGSIZE
    }

    /// Takes up to ``maximumPerRead`` entries from the error queue without waiting.
    /// - Parameter body: called for each ICMP or ICMPv6 report (other entries are skipped).
    /// - Returns: how many entries were taken.
    @discardableResult
    static func read(_ fd: Int32, into body: (OSCDeliveryFailure) -> Void) -> Int {
        #if os(Linux)
            var taken = 0
            // The datagram that failed comes back too: its first bytes are enough (MSG_TRUNC).
            var payload = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            // cmsghdr + sock_extended_err + the offender's sockaddr_in6, with room to spare.
            var control = (
                UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)
            )
            var name = sockaddr_storage()
            while taken < maximumPerRead {
                let received = withUnsafeMutableBytes(of: &payload) { payloadBytes in
                    withUnsafeMutableBytes(of: &control) { controlBytes in
                        withUnsafeMutableBytes(of: &name) { nameBytes in
                            var vector = iovec(iov_base: payloadBytes.baseAddress, iov_len: payloadBytes.count)
                            return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                                var header = msghdr()
                                header.msg_name = nameBytes.baseAddress
                                header.msg_namelen = socklen_t(nameBytes.count)
                                header.msg_iov = vectorPointer
                                header.msg_iovlen = 1
                                header.msg_control = controlBytes.baseAddress
                                header.msg_controllen = controlBytes.count
                                let result = try? SystemCall.run("recvmsg(MSG_ERRQUEUE)") {
                                    recvmsg(fd, &header, Int32(MSG_ERRQUEUE) | Socket.dontWait)
                                }
                                guard result != nil else { return nil as Report? }
                                return report(header, control: UnsafeRawBufferPointer(controlBytes))
                            }
                        }
                    }
                }
                guard let received else { break }
                taken += 1
                if let failure = received.failure(name: name) { body(failure) }
            }
            return taken
        #else
            return 0
        #endif
    }

    #if os(Linux)
        /// What one entry said: the extended error, if it was an ICMP one, and the name's length.
        private struct Report {
            var errno: Int32
            var isICMPv6: Bool
            var type: UInt8
            var code: UInt8
            var nameLength: socklen_t
            var isICMP: Bool

            func failure(name: sockaddr_storage) -> OSCDeliveryFailure? {
                guard isICMP, let destination = OSCSocketAddress(storage: name, length: nameLength) else { return nil }
                return OSCDeliveryFailure(
                    destination: destination, errno: errno, isICMPv6: isICMPv6, type: type, code: code)
            }
        }

        /// Finds the `sock_extended_err` among the control messages: `ee_errno` (u32), `ee_origin`,
        /// `ee_type`, `ee_code` (u8 each), then padding, info and data.
        private static func report(_ header: msghdr, control: UnsafeRawBufferPointer) -> Report? {
            var result = Report(
                errno: 0, isICMPv6: false, type: 0, code: 0, nameLength: header.msg_namelen, isICMP: false)
            let headerSize = MemoryLayout<cmsghdr>.size
            let alignment = MemoryLayout<Int>.size
            let end = min(Int(header.msg_controllen), control.count)
            var offset = 0
            while offset + headerSize <= end {
                let length = Int(control.load(fromByteOffset: offset, as: cmsghdr.self).cmsg_len)
                let level = control.load(fromByteOffset: offset, as: cmsghdr.self).cmsg_level
                let type = control.load(fromByteOffset: offset, as: cmsghdr.self).cmsg_type
                guard length >= headerSize, offset + length <= end else { break }
                let data = offset + ((headerSize + alignment - 1) & ~(alignment - 1))
                let isError =
                    (level == Int32(IPPROTO_IP) && type == ipRecvErr)
                    || (level == Int32(IPPROTO_IPV6) && type == ipv6RecvErr)
                if isError, data + 8 <= offset + length {
                    let origin = control[data + 4]
                    result.errno = Int32(bitPattern: control.loadUnaligned(fromByteOffset: data, as: UInt32.self))
                    result.isICMP = origin == originICMP || origin == originICMP6
                    result.isICMPv6 = origin == originICMP6
                    result.type = control[data + 5]
                    result.code = control[data + 6]
                    return result
                }
                offset += (length + alignment - 1) & ~(alignment - 1)
            }
            return result
        }
    #endif
}
