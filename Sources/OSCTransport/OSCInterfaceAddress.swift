#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address of one of this machine's network interfaces that is up, as
/// `getifaddrs` lists it: what a peer on the same network (a phone running TouchOSC) sends to.
public struct OSCInterfaceAddress: Sendable, Hashable {
    /// The interface's name, such as `eth0` or `lo`.
    public var interface: String
    /// The address, with port 0.
    public var address: OSCSocketAddress
    /// Whether the interface is a loopback one, which no other machine reaches.
    public var isLoopback: Bool

    /// Creates an entry.
    /// - Parameters:
    ///   - interface: the interface's name.
    ///   - address: the address (its port is not used).
    ///   - isLoopback: whether the interface is a loopback one.
    public init(interface: String, address: OSCSocketAddress, isLoopback: Bool) {
        self.interface = interface
        self.address = address
        self.isLoopback = isLoopback
    }

    /// Whether the address is IPv6 link-local (`fe80::/10`), which a peer can only use with the
    /// interface's scope (`%eth0`) that most OSC apps cannot take.
    public var isLinkLocal: Bool {
        let bytes = address.addressBytes
        return address.family == .ipv6 && bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80
    }

    /// The addresses of the interfaces that are up, in the order the kernel lists them.
    /// - Throws: ``OSCSystemError`` if `getifaddrs` fails.
    public static func all() throws(OSCSystemError) -> [OSCInterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { throw OSCSystemError(call: "getifaddrs", errno: errno) }
        defer { freeifaddrs(list) }
        var result: [OSCInterfaceAddress] = []
        var cursor = list
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, let socketAddress = entry.pointee.ifa_addr else { continue }
            let family = Int32(socketAddress.pointee.sa_family)
            let length =
                family == AF_INET
                ? MemoryLayout<sockaddr_in>.size : family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : 0
            guard length > 0 else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: socketAddress, count: length))
            }
            guard let address = OSCSocketAddress(storage: storage, length: socklen_t(length)) else { continue }
            let entry = OSCInterfaceAddress(
                interface: String(cString: entry.pointee.ifa_name), address: address,
                isLoopback: flags & Int32(IFF_LOOPBACK) != 0)
            if !result.contains(entry) { result.append(entry) }
        }
        return result
    }
}
