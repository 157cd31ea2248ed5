import Locking
import OSCCore
import OSCTransport

/// A UDP peer on a loopback port of its own that keeps every message it receives, and answers
/// each datagram with what `reply` returns for it (nothing by default): another controller
/// beside the mirror, or a fake server.
final class UDPPeer: Sendable {
    let socket: OSCUDPServer
    private let received = Received()

    final class Received: Sendable {
        let messages = Locked<[OSCMessage]>([])
    }

    init(reply: @escaping @Sendable (OSCMessage?, [UInt8]) -> [[UInt8]] = { _, _ in [] }) throws {
        socket = try OSCUDPServer(host: "127.0.0.1", port: 0)
        let socket = self.socket
        socket.start { [received] bytes, sender in
            let copy = Array(bytes)
            let packet = try? OSCPacket.decode(copy)
            let messages = packet.map(Self.messages(in:)) ?? []
            received.messages.withLock { $0 += messages }
            for answer in reply(messages.first, copy) { _ = try? socket.send(answer, to: sender) }
        }
    }

    deinit {
        socket.close()
    }

    var url: String { "osc.udp://127.0.0.1:\(socket.localAddress.port)/" }

    var messages: [OSCMessage] { received.messages.withLock { $0 } }

    func send(_ message: OSCMessage, toPort port: UInt16) throws {
        _ = try socket.send(message.encoded(), to: OSCSocketAddress(numericHost: "127.0.0.1", port: port)!)
    }

    private static func messages(in packet: OSCPacket) -> [OSCMessage] {
        switch packet {
        case .message(let message): [message]
        case .bundle(let bundle): bundle.elements.flatMap(messages(in:))
        }
    }
}
