import Foundation
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

    /// Sends one packet.
    ///
    /// A full send buffer is waited out rather than dropping the packet, since a command-line
    /// sender has nothing better to do; a port found closed (`ECONNREFUSED`, from an earlier
    /// datagram) is ignored, as `oscsend` ignores it: UDP gives no promise of delivery anyway.
    /// - Throws: ``CommandFailure`` for any other error of the socket.
    func send(_ packet: OSCPacket) throws(CommandFailure) {
        let bytes = packet.encoded()
        for _ in 0..<1000 {
            do {
                if try udp.send(bytes) { return }
            } catch where error.errno == ECONNREFUSED {
                return
            } catch {
                throw CommandFailure("could not send: \(error)")
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
        throw CommandFailure("could not send: the send buffer stayed full")
    }

    func close() {
        udp.close()
    }
}
