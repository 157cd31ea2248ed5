#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The options of a UDP socket, set on the socket itself: what ``OSCUDPOptions`` asks for at
/// creation, and multicast membership later.
extension Socket {
    /// Sets the buffers, address reuse, broadcast and the multicast defaults of `options`.
    static func configureDatagram(_ fd: Int32, family: OSCSocketAddress.Family, options: OSCUDPOptions)
        throws(OSCSystemError)
    {
        if options.receiveBufferSize > 0 {
            let size = Int32(clamping: options.receiveBufferSize)
            #if os(Linux)
                // SO_RCVBUFFORCE passes net.core.rmem_max when the process may (root or
                // CAP_NET_ADMIN); otherwise ask politely, within the limit.
                do throws(OSCSystemError) {
                    try setOption(fd, SOL_SOCKET, SO_RCVBUFFORCE, size, "setsockopt(SO_RCVBUFFORCE)")
                } catch {
                    try setOption(fd, SOL_SOCKET, SO_RCVBUF, size, "setsockopt(SO_RCVBUF)")
                }
            #else
                try setOption(fd, SOL_SOCKET, SO_RCVBUF, size, "setsockopt(SO_RCVBUF)")
            #endif
        }
        if let size = options.sendBufferSize {
            try setOption(fd, SOL_SOCKET, SO_SNDBUF, Int32(clamping: size), "setsockopt(SO_SNDBUF)")
        }
        if options.reuseAddress {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1, "setsockopt(SO_REUSEADDR)")
            try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1, "setsockopt(SO_REUSEPORT)")
        }
        if options.broadcast {
            try setOption(fd, SOL_SOCKET, SO_BROADCAST, 1, "setsockopt(SO_BROADCAST)")
        }
        switch family {
        case .ipv4:
            try setOption(
                fd, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, options.multicastLoopback ? 1 : 0,
                "setsockopt(IP_MULTICAST_LOOP)")
            try setOption(
                fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, options.multicastTTL, "setsockopt(IP_MULTICAST_TTL)")
            if let interface = options.multicastInterface,
                let address = OSCSocketAddress(numericHost: interface, port: 0), address.family == .ipv4
            {
                try setOption(
                    fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, bytes: address.ipv4Address, "setsockopt(IP_MULTICAST_IF)")
            }
        case .ipv6:
            try setOption(
                fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, options.multicastLoopback ? 1 : 0,
                "setsockopt(IPV6_MULTICAST_LOOP)")
            try setOption(
                fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, options.multicastTTL, "setsockopt(IPV6_MULTICAST_HOPS)")
        }
    }

    /// Joins (or, with `leave`, leaves) the multicast `group`, on `interface` (IPv4) or the
    /// default one.
    static func setMembership(_ fd: Int32, group: OSCSocketAddress, interface: OSCSocketAddress?, leave: Bool)
        throws(OSCSystemError)
    {
        switch group.family {
        case .ipv4:
            var request = ip_mreq()
            request.imr_multiaddr = group.ipv4Address
            if let interface, interface.family == .ipv4 { request.imr_interface = interface.ipv4Address }
            try setOption(
                fd, Int32(IPPROTO_IP), leave ? IP_DROP_MEMBERSHIP : IP_ADD_MEMBERSHIP, bytes: request,
                leave ? "setsockopt(IP_DROP_MEMBERSHIP)" : "setsockopt(IP_ADD_MEMBERSHIP)")
        case .ipv6:
            var request = ipv6_mreq()
            request.ipv6mr_multiaddr = group.withSockAddr { pointer, _ in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            }
            request.ipv6mr_interface = 0
            try setOption(
                fd, Int32(IPPROTO_IPV6), leave ? IPV6_LEAVE_GROUP : IPV6_JOIN_GROUP, bytes: request,
                leave ? "setsockopt(IPV6_LEAVE_GROUP)" : "setsockopt(IPV6_JOIN_GROUP)")
        }
    }
}

extension OSCSocketAddress {
    /// The `in_addr` of an IPv4 address.
    fileprivate var ipv4Address: in_addr {
        withSockAddr { pointer, _ in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        }
    }
}
