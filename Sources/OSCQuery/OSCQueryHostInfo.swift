/// What `GET /?HOST_INFO` answers: the server's name, its OSC port and what it serves.
///
/// The server makes one per request, because `OSC_IP` is the address that request arrived on:
/// a server bound to every interface has no single address to give, and `0.0.0.0` would send
/// clients nowhere.
public struct OSCQueryHostInfo: Sendable, Hashable {
    /// The extensions KnobLink serves, all `true`, in the order they are written: the attributes
    /// of the namespace, then the WebSocket's (PROTOCOL.md section 7).
    public static let servedExtensions = [
        "ACCESS", "VALUE", "RANGE", "DESCRIPTION", "UNIT", "CLIPMODE", "EXTENDED_TYPE", "LISTEN", "LISTEN_CONTAINER",
        "PATH_CHANGED", "PATH_ADDED", "PATH_REMOVED", "OSC_STREAMING",
    ]

    /// `NAME`: the `--name`, stable across restarts.
    public var name: String
    /// `OSC_PORT`: the UDP port of the OSC server.
    public var oscPort: Int
    /// `OSC_IP`: the address the request arrived on, or `nil`. An unspecified address (`0.0.0.0`,
    /// `::`) or an empty one is left out; an IPv4-mapped IPv6 address (`::ffff:192.168.1.2`) is
    /// written as the IPv4 address.
    public var oscIP: String?
    /// `EXTENSIONS`: the names written as `true`.
    public var extensions: [String]

    /// Creates host info; `extensions` defaults to everything KnobLink serves.
    public init(name: String, oscPort: Int, oscIP: String? = nil, extensions: [String] = servedExtensions) {
        self.name = name
        self.oscPort = oscPort
        self.oscIP = oscIP
        self.extensions = extensions
    }

    /// The address written as `OSC_IP`, or `nil` when there is none worth sending.
    public var advertisedIP: String? {
        guard var address = oscIP, !address.isEmpty else { return nil }
        let mapped = "::ffff:"
        if address.lowercased().hasPrefix(mapped), address.contains(".") { address.removeFirst(mapped.count) }
        if ["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"].contains(address) { return nil }
        return address
    }

    /// The JSON object: `NAME`, `OSC_IP` (when there is one), `OSC_PORT`, `OSC_TRANSPORT` `"UDP"`
    /// and `EXTENSIONS`.
    public var json: OSCQueryJSON {
        var members: [(key: String, value: OSCQueryJSON)] = [("NAME", .string(name))]
        if let ip = advertisedIP { members.append(("OSC_IP", .string(ip))) }
        members.append(("OSC_PORT", .int(oscPort)))
        members.append(("OSC_TRANSPORT", .string("UDP")))
        members.append(("EXTENSIONS", .object(extensions.map { ($0, .bool(true)) })))
        return .object(members)
    }
}
