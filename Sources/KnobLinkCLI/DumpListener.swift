import OSCTransport

/// The socket `dump` listens on: a UDP server, or a TCP server whose connections are read frame by frame.
struct DumpListener: Sendable {
    private let udp: OSCUDPServer?
    /// The port bound, which the kernel chose if 0 was asked for.
    let port: UInt16

    /// Binds `port` on every interface, IPv6 and IPv4 alike where the system allows it, as
    /// `oscdump` binds every interface.
    /// - Throws: ``CommandFailure`` when the port cannot be bound.
    static func udp(port: UInt16, printer: DumpPrinter) throws(CommandFailure) -> DumpListener {
        let server: OSCUDPServer
        do {
            server = try (try? OSCUDPServer(host: "::", port: port, loop: printer.loop))
                ?? OSCUDPServer(host: "0.0.0.0", port: port, loop: printer.loop)
        } catch {
            throw CommandFailure("could not listen on UDP port \(port): \(error)")
        }
        server.start { bytes, sender in printer.receive(bytes, from: Self.shown(sender)) }
        return DumpListener(udp: server, port: server.localAddress.port)
    }

    /// The peer as people write it: an IPv4 sender on the dual-stack socket without its `::ffff:`.
    static func shown(_ address: OSCSocketAddress) -> String {
        let host = address.host
        guard host.hasPrefix("::ffff:"), host.contains(".") else { return address.description }
        return "\(host.dropFirst(7)):\(address.port)"
    }

    func close() {
        udp?.close()
    }
}
