#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A datagram the network sent back: an ICMP or ICMPv6 error about an earlier send, read from the
/// socket's error queue (Linux's `IP_RECVERR` and `IPV6_RECVERR`).
///
/// A UDP socket that is not connected hears of such errors only this way: a send to a closed port
/// succeeds, and the port-unreachable answer comes later.
public struct OSCDeliveryFailure: Sendable, Hashable, CustomStringConvertible {
    /// The destination of the datagram that failed (port included).
    public var destination: OSCSocketAddress
    /// The error the kernel made of it: `ECONNREFUSED` for a closed port, `EHOSTUNREACH`, …
    public var errno: Int32
    /// Whether the error came as ICMPv6 (an IPv6 destination) rather than ICMP.
    public var isICMPv6: Bool
    /// The ICMP type (3, or 1 for ICMPv6: destination unreachable).
    public var type: UInt8
    /// The ICMP code (3, or 4 for ICMPv6: port unreachable).
    public var code: UInt8

    /// Creates a failure report.
    /// - Parameters:
    ///   - destination: where the failed datagram went.
    ///   - errno: the error the kernel reported.
    ///   - isICMPv6: whether the report came as ICMPv6.
    ///   - type: the ICMP type.
    ///   - code: the ICMP code.
    public init(destination: OSCSocketAddress, errno: Int32, isICMPv6: Bool, type: UInt8, code: UInt8) {
        self.destination = destination
        self.errno = errno
        self.isICMPv6 = isICMPv6
        self.type = type
        self.code = code
    }

    /// Whether the destination cannot be reached at all (ICMP "destination unreachable", except
    /// "fragmentation needed", which only asks for smaller datagrams).
    public var isUnreachable: Bool {
        isICMPv6 ? type == 1 : type == 3 && code != 4
    }

    /// `destination unreachable: 127.0.0.1:9000 (Connection refused)`.
    public var description: String {
        let what = isUnreachable ? "destination unreachable" : "delivery failed (ICMP type \(type) code \(code))"
        return "\(what): \(destination) (\(String(cString: strerror(errno))))"
    }
}
