import OSCTransport

/// The socket `dump` listens on: a UDP server, or a TCP server whose connections are read frame
/// by frame in the framing their first byte announces.
struct DumpListener: Sendable {
    // Held so that the servers live as long as the listener; the process ends with them open.
    private let udp: OSCUDPServer?
    private let tcp: OSCTCPServer?
    /// The port bound, which the kernel chose if 0 was asked for.
    let port: UInt16

    /// Binds `port` on every interface, IPv6 and IPv4 alike where the system allows it, as
    /// `oscdump` binds every interface, and starts printing what arrives.
    /// - Parameter group: a multicast group to join (UDP only), as `oscdump osc.udp://GROUP:PORT` does.
    /// - Throws: ``CommandFailure`` when the port cannot be bound.
    static func start(
        _ transport: OSCURL.Transport,
        port: UInt16,
        group: String? = nil,
        printer: DumpPrinter
    ) throws(CommandFailure) -> DumpListener {
        do {
            switch transport {
            case .udp:
                var options = OSCUDPOptions()
                // Other receivers of the group may share the port, as liblo's multicast servers do.
                options.reuseAddress = group != nil
                let server: OSCUDPServer
                if let group, !group.contains(":") {
                    // An IPv4 group is joined on an IPv4 socket.
                    server = try OSCUDPServer(host: "0.0.0.0", port: port, options: options, loop: printer.loop)
                } else {
                    server = try bindAnyHost {
                        try OSCUDPServer(host: $0, port: port, options: options, loop: printer.loop)
                    }
                }
                if let group { try server.joinMulticastGroup(group) }
                server.start { bytes, sender in printer.receive(bytes, from: shown(sender)) }
                return DumpListener(udp: server, tcp: nil, port: server.localAddress.port)
            case .tcp:
                let server = try bindAnyHost { host in try OSCTCPServer(host: host, port: port, loop: printer.loop) }
                server.start(
                    onFrame: { bytes, connection in printer.receive(bytes, from: shown(connection.remoteAddress)) },
                    onClose: { connection, reason in
                        guard let problem = problem(reason) else { return }
                        printer.report("connection from \(shown(connection.remoteAddress)) closed: \(problem)")
                    })
                return DumpListener(udp: nil, tcp: server, port: server.localAddress.port)
            }
        } catch {
            throw CommandFailure("could not listen on \(transport == .udp ? "UDP" : "TCP") port \(port): \(error)")
        }
    }

    /// Binds the IPv6 wildcard, which takes IPv4 too, or the IPv4 one on a system without IPv6.
    private static func bindAnyHost<Server>(_ bind: (String) throws -> Server) throws -> Server {
        do {
            return try bind("::")
        } catch {
            return try bind("0.0.0.0")
        }
    }

    /// What went wrong when a connection closed, or `nil` when it simply ended.
    private static func problem(_ reason: OSCTCPCloseReason) -> String? {
        switch reason {
        case .peerClosed, .closedLocally: nil
        case .framingError(let error): "\(error)"
        case .systemError(let error): "\(error)"
        case .writeQueueOverflow: "it stopped reading"
        case .otherProtocolRefused: "it spoke neither OSC framing (its first byte was not 0x00, 0xC0, '/' or '#')"
        case .firstFrameTimeout, .evicted, .inputBudgetExceeded: reason.description
        }
    }

    /// The peer as people write it: an IPv4 sender on the dual-stack socket without its `::ffff:`.
    static func shown(_ address: OSCSocketAddress) -> String {
        let host = address.host
        guard host.hasPrefix("::ffff:"), host.contains(".") else { return address.description }
        return "\(host.dropFirst(7)):\(address.port)"
    }
}
