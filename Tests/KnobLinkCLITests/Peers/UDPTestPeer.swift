import Foundation
import Locking
import OSCCore
import OSCTransport
import Synchronization

/// A UDP peer of a `knoblink serve` under test: it sends from one socket, bound to a loopback
/// address of its own, and records every datagram that comes back to that socket.
///
/// A peer is IP + feedback port (PROTOCOL.md 9.1): under `--feedback-port auto` the socket's port
/// is the reply address; with a fixed feedback port bind the peer to that port on an address of
/// its own (127.0.0.2, 127.0.0.3 …), as a control surface listening on 9000 does.
final class UDPTestPeer: Sendable {
    /// One message as it arrived: the index of its datagram (messages of one bundle share it).
    struct Received: Sendable {
        var datagram: Int
        var inBundle: Bool
        /// Whether it came between `/sys/update i 1` and `i 0` (current values, not a reply).
        var inUpdate: Bool
        var message: OSCMessage
        var time: ContinuousClock.Instant
    }

    private struct Log {
        var datagrams = 0
        var bytes: [Int] = []
        var undecodable = 0
        var inUpdate = false
        var received: [Received] = []
    }

    /// The log lives in a box the socket's handler can hold (a class, so that the closure holds a reference).
    private final class LogBox: Sendable {
        let mutex = Locked(Log())
        func withLock<T>(_ body: (inout Log) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    private let socket: OSCUDPServer
    private let log = LogBox()
    /// The port of the server this peer talks to unless told otherwise.
    let serverPort: UInt16
    let host: String

    init(host: String = "127.0.0.1", port: UInt16 = 0, server serverPort: UInt16) throws {
        self.host = host
        self.serverPort = serverPort
        socket = try OSCUDPServer(host: host, port: port)
        socket.start { [log] bytes, _ in
            let copy = [UInt8](bytes)
            log.withLock { log in
                let index = log.datagrams
                log.datagrams += 1
                log.bytes.append(copy.count)
                guard let packet = try? OSCPacket.decode(copy) else {
                    log.undecodable += 1
                    return
                }
                let now = ContinuousClock.now
                func append(_ packet: OSCPacket, inBundle: Bool) {
                    switch packet {
                    case .message(let message):
                        if message == OSCMessage("/sys/update", [.int32(1)]) { log.inUpdate = true }
                        log.received.append(
                            Received(
                                datagram: index, inBundle: inBundle, inUpdate: log.inUpdate, message: message, time: now
                            ))
                        if message == OSCMessage("/sys/update", [.int32(0)]) { log.inUpdate = false }
                    case .bundle(let bundle):
                        for element in bundle.elements { append(element, inBundle: true) }
                    }
                }
                append(packet, inBundle: false)
            }
        }
    }

    deinit {
        socket.close()
    }

    var port: UInt16 { socket.localAddress.port }

    /// The reply address as a subscription url.
    var url: String { "osc.udp://\(host):\(port)/" }

    // MARK: Sending

    func send(_ address: String, _ arguments: [OSCArgument] = [], to port: UInt16? = nil) {
        sendRaw(OSCMessage(address, arguments).encoded(), to: port)
    }

    func send(_ address: String, _ value: Float, to port: UInt16? = nil) {
        send(address, [.float32(value)], to: port)
    }

    func send(_ packet: OSCPacket, to port: UInt16? = nil) {
        sendRaw(packet.encoded(), to: port)
    }

    func sendRaw(_ bytes: [UInt8], to port: UInt16? = nil) {
        let destination = OSCSocketAddress(numericHost: "127.0.0.1", port: port ?? serverPort)!
        // A full socket buffer drops the datagram, as UDP may; the tests count at the receiver.
        _ = try? socket.send(bytes, to: destination)
    }

    // MARK: What came back

    var received: [Received] { log.withLock { $0.received } }
    var messages: [OSCMessage] { received.map(\.message) }
    var datagramCount: Int { log.withLock { $0.datagrams } }
    var datagramSizes: [Int] { log.withLock { $0.bytes } }
    var undecodableCount: Int { log.withLock { $0.undecodable } }

    /// The messages to `address` received so far.
    func messages(to address: String) -> [OSCMessage] {
        messages.filter { $0.address == address }
    }

    /// Forgets everything received so far.
    func clear() {
        log.withLock { $0 = Log() }
    }

    /// Polls until `condition` holds on the messages received so far, or `timeout` passes.
    @discardableResult
    func wait(timeout: Duration = .seconds(5), until condition: ([OSCMessage]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(messages) { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition(messages)
    }

    /// Waits for a message to `address` (beyond the first `after` ones) and returns it.
    func waitForMessage(_ address: String, after: Int = 0, timeout: Duration = .seconds(5)) -> OSCMessage? {
        guard wait(timeout: timeout, until: { $0.count { $0.address == address } > after }) else { return nil }
        return messages(to: address).dropFirst(after).first
    }

    /// Sends `address` with `arguments` and waits for the reply to `replyAddress`: the first
    /// message to it that arrives after the send and outside `/sys/update` brackets (the current
    /// values a new implicit subscriber gets may arrive in between).
    func request(
        _ address: String, _ arguments: [OSCArgument] = [], reply replyAddress: String? = nil,
        timeout: Duration = .seconds(5)
    ) -> OSCMessage? {
        requestReceived(address, arguments, reply: replyAddress, timeout: timeout)?.message
    }

    /// ``request(_:_:reply:timeout:)``, returning the reply as received, with the time it
    /// arrived: a round trip measured to that time is not rounded up to the 5 ms of the polling.
    func requestReceived(
        _ address: String, _ arguments: [OSCArgument] = [], reply replyAddress: String? = nil,
        timeout: Duration = .seconds(5)
    ) -> Received? {
        let target = replyAddress ?? address
        let start = log.withLock { $0.received.count }
        send(address, arguments)
        let deadline = ContinuousClock.now + timeout
        repeat {
            let reply = log.withLock { log in
                log.received.dropFirst(start).first { !$0.inUpdate && $0.message.address == target }
            }
            if let reply { return reply }
            Thread.sleep(forTimeInterval: 0.005)
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Waits until `/sys/update i 0` has arrived `count` times (the end of a bracketed reply).
    @discardableResult
    func waitForUpdateEnd(count: Int = 1, timeout: Duration = .seconds(5)) -> Bool {
        wait(timeout: timeout) { $0.count { $0 == OSCMessage("/sys/update", [.int32(0)]) } >= count }
    }

    /// Lets `duration` pass and returns what arrived meanwhile (after forgetting the rest).
    func collect(for duration: Duration) -> [OSCMessage] {
        clear()
        Thread.sleep(forTimeInterval: duration.seconds)
        return messages
    }
}
