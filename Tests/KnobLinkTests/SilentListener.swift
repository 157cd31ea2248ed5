import Locking
import OSCCore
import OSCTransport

@testable import KnobLink

/// A UDP socket that listens and sends nothing unless told to: the victim of a reflection attack,
/// which the server has never heard from. Counts the datagrams and bytes it gets.
final class SilentListener: Sendable {
    let socket: OSCUDPServer
    private let received = Locked<(datagrams: Int, bytes: Int)>((0, 0))

    /// A listener on `host` (any 127.x.y.z works on Linux) at a free port.
    init(host: String) throws {
        socket = try OSCUDPServer(host: host, port: 0)
        socket.start { [weak self] bytes, _ in
            self?.received.withLock {
                $0.datagrams += 1
                $0.bytes += bytes.count
            }
        }
    }

    deinit { socket.close() }

    /// Sends one `/sys/ping` to the server on `port` at 127.0.0.1: the listener's host is then
    /// one the server has heard from.
    func greet(port: UInt16) throws {
        _ = try socket.send(
            OSCMessage("/sys/ping").encoded(), to: OSCSocketAddress(numericHost: "127.0.0.1", port: port)!)
    }

    /// `osc.udp://HOST:PORT/`.
    var url: String { "osc.udp://\(socket.localAddress.host):\(socket.localAddress.port)/" }
    var datagrams: Int { received.withLock { $0.datagrams } }
    var bytes: Int { received.withLock { $0.bytes } }
}
