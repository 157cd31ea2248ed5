/// A liblo-style OSC URL: `osc.udp://host:port/` or `osc.tcp://host:port/`.
///
/// The text form is the one liblo's `lo_address_get_url` writes: the transport after `osc.`, an
/// IPv6 host in brackets, the port, and a closing `/`. Parsing accepts what liblo accepts:
/// `osc://` means UDP, an empty host means `localhost`, and a path after the port is ignored.
/// The host is kept as written; ``resolve()`` turns it into socket addresses.
public struct OSCURL: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// The transport named by the scheme.
    public enum Transport: String, Sendable, Hashable {
        /// `osc.udp`.
        case udp
        /// `osc.tcp`.
        case tcp
    }

    /// UDP or TCP.
    public var transport: Transport
    /// The host as written, without brackets: a name, an IPv4 or an IPv6 address.
    public var host: String
    /// The port.
    public var port: UInt16

    /// Creates a URL from its parts.
    /// - Parameters:
    ///   - transport: UDP or TCP.
    ///   - host: a name or numeric address, without brackets.
    ///   - port: the port.
    public init(transport: Transport = .udp, host: String, port: UInt16) {
        self.transport = transport
        self.host = host
        self.port = port
    }

    /// Creates the URL of a socket address, with its numeric host.
    /// - Parameters:
    ///   - transport: UDP or TCP.
    ///   - address: the socket address.
    public init(transport: Transport = .udp, address: OSCSocketAddress) {
        self.init(transport: transport, host: address.host, port: address.port)
    }

    /// Parses a URL; `nil` if it is not one (see ``parse(_:)`` for the reason).
    /// - Parameter description: the text.
    public init?(_ description: String) {
        guard let url = try? Self.parse(description) else { return nil }
        self = url
    }

    /// Parses `osc.udp://host:port/`, `osc.tcp://host:port/`, `osc://host:port` (UDP).
    /// - Parameter text: the URL.
    /// - Returns: the URL.
    /// - Throws: ``OSCSocketAddressError/invalidURL(_:reason:)`` naming what is wrong.
    public static func parse(_ text: String) throws(OSCSocketAddressError) -> OSCURL {
        func fail(_ reason: String) -> OSCSocketAddressError { .invalidURL(text, reason: reason) }
        let separator = Array("://")
        let characters = Array(text)
        guard let at = characters.indices.first(where: { characters[$0...].starts(with: separator) })
        else { throw fail("no '://'") }
        let scheme = String(characters[..<at]).lowercased()
        let transport: Transport
        switch scheme {
        case "osc", "osc.udp": transport = .udp
        case "osc.tcp": transport = .tcp
        default: throw fail("scheme '\(scheme)' is not osc.udp or osc.tcp")
        }
        var rest = Substring(String(characters[(at + 3)...]))
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("'[' without ']'") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { throw fail("no port") }
            portText = after.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { throw fail("no port") }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
            guard !host.contains(":") else { throw fail("an IPv6 host must be in brackets") }
        }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText)
        else { throw fail("port '\(portText)' is not a number from 0 to 65535") }
        return OSCURL(transport: transport, host: host.isEmpty ? "localhost" : String(host), port: port)
    }

    /// `osc.udp://127.0.0.1:8000/`, `osc.tcp://[::1]:8000/`, as liblo writes them.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "osc.\(transport.rawValue)://\(shownHost):\(port)/"
    }

    /// Resolves the host; see ``OSCSocketAddress/resolve(host:port:)`` (a name lookup may block).
    /// - Returns: the socket addresses, IPv4 first.
    /// - Throws: ``OSCSocketAddressError/unresolvedHost(_:reason:)``.
    public func resolve() throws(OSCSocketAddressError) -> [OSCSocketAddress] {
        try OSCSocketAddress.resolve(host: host, port: port)
    }
}
