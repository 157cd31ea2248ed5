#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 socket address (host and port), as the kernel takes and gives it.
///
/// The address is kept in a `sockaddr_storage`, so passing it to `sendto` costs no conversion;
/// equality and hashing look at the family, the address, the port and (IPv6) the scope only.
public struct OSCSocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        /// IPv4 (`AF_INET`).
        case ipv4
        /// IPv6 (`AF_INET6`).
        case ipv6
    }

    var storage: sockaddr_storage
    var length: socklen_t

    /// Wraps an address the kernel filled in; `nil` unless it is IPv4 or IPv6.
    init?(storage: sockaddr_storage, length: socklen_t) {
        let family = Int32(storage.ss_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        self.storage = storage
        self.length = length
    }

    /// Parses a numeric host (`127.0.0.1`, `::1`, `fe80::1%lo`) without any name lookup.
    /// - Parameters:
    ///   - host: the numeric address; brackets around an IPv6 address are allowed.
    ///   - port: the port.
    /// - Returns: `nil` if `host` is not a numeric IPv4 or IPv6 address.
    public init?(numericHost host: String, port: UInt16) {
        guard let first = try? Self.lookUp(host: host, port: port, flags: AI_NUMERICHOST).first else { return nil }
        self = first
    }

    /// Resolves a host name or numeric address with `getaddrinfo`.
    ///
    /// A name lookup may wait on the network: call this off the event loop and off the Swift
    /// concurrency pool (a numeric host returns at once).
    /// - Parameters:
    ///   - host: a name (`localhost`) or a numeric address.
    ///   - port: the port.
    /// - Returns: the addresses found, IPv4 first.
    /// - Throws: ``OSCSocketAddressError/unresolvedHost(_:reason:)``.
    public static func resolve(host: String, port: UInt16) throws(OSCSocketAddressError) -> [OSCSocketAddress] {
        let found = try lookUp(host: host, port: port, flags: 0)
        return found.filter { $0.family == .ipv4 } + found.filter { $0.family == .ipv6 }
    }

    private static func lookUp(
        host: String, port: UInt16, flags: Int32
    ) throws(OSCSocketAddressError) -> [OSCSocketAddress] {
        var name = host
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_flags = flags
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.datagramType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, String(port), &hints, &list)
        guard status == 0 else {
            throw .unresolvedHost(host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var result: [OSCSocketAddress] = []
        var cursor = list
        while let entry = cursor {
            if let address = entry.pointee.ai_addr {
                var storage = sockaddr_storage()
                let length = entry.pointee.ai_addrlen
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
                }
                if let socketAddress = OSCSocketAddress(storage: storage, length: length),
                    !result.contains(socketAddress)
                {
                    result.append(socketAddress)
                }
            }
            cursor = entry.pointee.ai_next
        }
        guard !result.isEmpty else { throw .unresolvedHost(host, reason: "no IPv4 or IPv6 address") }
        return result
    }

    static var datagramType: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_DGRAM.rawValue)
        #else
            SOCK_DGRAM
        #endif
    }

    /// IPv4 or IPv6.
    public var family: Family { Int32(storage.ss_family) == AF_INET ? .ipv4 : .ipv6 }

    /// The port.
    public var port: UInt16 {
        get {
            withUnsafeBytes(of: storage) { raw in
                family == .ipv4
                    ? UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
                    : UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
            }
        }
        set {
            // sin_port and sin6_port sit at the same offset, right after the family.
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.storeBytes(of: newValue.bigEndian, toByteOffset: 2, as: UInt16.self)
            }
        }
    }

    /// The numeric host: `127.0.0.1`, `::1`, `fe80::1%2` (without brackets).
    public var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 16)
        var copy = storage
        let ok = withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
            }
        }
        guard ok else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address bytes: 4 for IPv4, 16 for IPv6.
    public var addressBytes: [UInt8] {
        withUnsafeBytes(of: storage) { raw in
            family == .ipv4 ? Array(raw[4..<8]) : Array(raw[8..<24])
        }
    }

    private var scopeID: UInt32 {
        family == .ipv4 ? 0 : withUnsafeBytes(of: storage) { $0.load(fromByteOffset: 24, as: UInt32.self) }
    }

    /// Whether the address is in `127.0.0.0/8`, is `::1`, or is an IPv4-mapped loopback address.
    public var isLoopback: Bool {
        let bytes = addressBytes
        if family == .ipv4 { return bytes[0] == 127 }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] && bytes[12] == 127
    }

    /// Whether the address is a multicast group (`224.0.0.0/4`, `ff00::/8`).
    public var isMulticast: Bool {
        let bytes = addressBytes
        return family == .ipv4 ? bytes[0] & 0xF0 == 0xE0 : bytes[0] == 0xFF
    }

    /// `127.0.0.1:8000`, or `[::1]:8000` for IPv6; an IPv4-mapped address (a dual-stack socket's
    /// view of an IPv4 peer) reads as the IPv4 address that it is.
    public var description: String {
        if family == .ipv4 { return "\(host):\(port)" }
        let bytes = addressBytes
        if bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15]):\(port)"
        }
        return "[\(host)]:\(port)"
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) { raw in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    public static func == (lhs: OSCSocketAddress, rhs: OSCSocketAddress) -> Bool {
        lhs.family == rhs.family && lhs.port == rhs.port && lhs.addressBytes == rhs.addressBytes
            && lhs.scopeID == rhs.scopeID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(port)
        hasher.combine(scopeID)
        withUnsafeBytes(of: storage) { raw in
            hasher.combine(
                bytes: family == .ipv4
                    ? UnsafeRawBufferPointer(rebasing: raw[4..<8])
                    : UnsafeRawBufferPointer(rebasing: raw[8..<24]))
        }
    }
}
