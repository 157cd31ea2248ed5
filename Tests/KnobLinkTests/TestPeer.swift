import Locking
import OSCCore
import OSCTransport

@testable import KnobLink

/// A UDP peer of a server under test: sends from its own port and records every message it gets
/// back (bundles flattened), so tests wait on what arrived with a bound.
final class TestPeer: Sendable {
    let client: OSCUDPClient
    private let inbox = Locked<(messages: [OSCMessage], packets: Int, largest: Int)>(([], 0, 0))

    /// A peer of the server on `port`, from `host` (any 127.x.y.z works on Linux).
    init(port: UInt16, remoteHost: String = "127.0.0.1") throws {
        client = try OSCUDPClient(remote: OSCSocketAddress(numericHost: remoteHost, port: port)!)
        client.start { [weak self] bytes, _ in
            guard let packet = try? OSCPacket.decode(Array(bytes)) else { return }
            var flat: [OSCMessage] = []
            Self.flatten(packet, into: &flat)
            self?.record(flat, size: bytes.count)
        }
    }

    private func record(_ messages: [OSCMessage], size: Int) {
        inbox.withLock {
            $0.messages.append(contentsOf: messages)
            $0.packets += 1
            $0.largest = max($0.largest, size)
        }
    }

    deinit { client.close() }

    private static func flatten(_ packet: OSCPacket, into messages: inout [OSCMessage]) {
        switch packet {
        case .message(let message): messages.append(message)
        case .bundle(let bundle): for element in bundle.elements { flatten(element, into: &messages) }
        }
    }

    /// `osc.udp://127.0.0.1:PORT/`, the url at which this peer receives.
    var url: String { "osc.udp://127.0.0.1:\(client.localAddress.port)/" }

    func send(_ address: String, _ arguments: [OSCArgument] = []) {
        _ = try? client.send(OSCMessage(address, arguments).encoded())
    }

    func send(packet: OSCPacket) {
        _ = try? client.send(packet.encoded())
    }

    func send(bytes: [UInt8]) {
        _ = try? client.send(bytes)
    }

    var messages: [OSCMessage] { inbox.withLock { $0.messages } }
    var packetCount: Int { inbox.withLock { $0.packets } }
    var largestPacket: Int { inbox.withLock { $0.largest } }

    func messages(_ address: String) -> [OSCMessage] { messages.filter { $0.address == address } }

    func clear() { inbox.withLock { $0 = ([], 0, 0) } }

    /// Waits until `condition` holds for what arrived, or `seconds` pass; returns whether it held.
    /// The default is generous (it only bounds a failing wait): under ThreadSanitizer, with many
    /// suites at once, an answer can take seconds.
    @discardableResult
    func wait(seconds: Double = 15, until condition: ([OSCMessage]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition(messages) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition(messages)
    }

    /// Waits for a message at `address` and returns the last one.
    func next(_ address: String, seconds: Double = 15) async -> OSCMessage? {
        await wait(seconds: seconds) { $0.contains { $0.address == address } }
        return messages(address).last
    }

    /// Sends, then waits for the reply at `replyAddress`, having cleared the inbox first.
    func request(_ address: String, _ arguments: [OSCArgument] = [], reply replyAddress: String) async -> OSCMessage? {
        clear()
        send(address, arguments)
        return await next(replyAddress)
    }

    /// Subscribes this peer and waits for the end of the current values.
    func subscribe(pattern: String = "", maxHz: Float = 0, flags: Int32 = 1) async {
        clear()
        send("/sys/subscribe", [.string(url), .string(pattern), .float32(maxHz), .int32(flags)])
        await wait { $0.contains { $0.address == "/sys/update" && $0.arguments == [.int32(0)] } }
        clear()
    }

    /// Lets the server handle what was sent so far: a ping round trip (replies are in order).
    func sync() async {
        let before = messages("/sys/pong").count
        send("/sys/ping")
        await wait { $0.filter { $0.address == "/sys/pong" }.count > before }
    }
}

/// Whether two floats agree to within the protocol's tolerance (values travel through a taper).
func close(_ lhs: Float?, _ rhs: Float?, tolerance: Float = 1e-5) -> Bool {
    guard let lhs, let rhs else { return false }
    return abs(lhs - rhs) <= tolerance
}

extension OSCMessage {
    var float: Float? {
        guard case .float32(let value) = arguments.first else { return nil }
        return value
    }

    var string: String? {
        guard case .string(let value) = arguments.first else { return nil }
        return value
    }
}
