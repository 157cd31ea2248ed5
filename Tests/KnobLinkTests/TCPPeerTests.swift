import Locking
import OSCCore
import OSCTransport
import Testing

@testable import KnobLink

/// Rules 9.1 and 9.13: TCP peers in both framings, replies framed like the connection.
@Suite struct TCPPeerTests {
    final class Inbox: Sendable {
        let messages = Locked<[OSCMessage]>([])
        let closed = Locked<OSCTCPCloseReason?>(nil)

        func wait(seconds: Double = 5, until condition: ([OSCMessage]) -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                if messages.withLock({ condition($0) }) { return true }
                try? await Task.sleep(for: .milliseconds(2))
            }
            return messages.withLock { condition($0) }
        }
    }

    func connect(_ fixture: ServerFixture, framing: OSCFraming) async throws -> (OSCTCPConnection, Inbox) {
        let inbox = Inbox()
        let connection = try await OSCTCPClient.connect(
            to: OSCSocketAddress(numericHost: "127.0.0.1", port: fixture.port)!, framing: framing,
            onFrame: { bytes, _ in
                guard let packet = try? OSCPacket.decode(Array(bytes)) else { return }
                var flat: [OSCMessage] = []
                func walk(_ packet: OSCPacket) {
                    switch packet {
                    case .message(let message): flat.append(message)
                    case .bundle(let bundle): bundle.elements.forEach(walk)
                    }
                }
                walk(packet)
                inbox.messages.withLock { $0.append(contentsOf: flat) }
            },
            onClose: { _, reason in inbox.closed.withLock { $0 = reason } })
        return (connection, inbox)
    }

    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func queryAndImplicitSubscriptionOverTCP(framing: OSCFraming) async throws {
        let fixture = try ServerFixture()
        let (connection, inbox) = try await connect(fixture, framing: framing)
        defer { connection.close() }
        connection.send(OSCMessage("/knob/gain/raw").encoded())
        #expect(await inbox.wait { $0.contains { $0.address == "/knob/gain/raw" } })
        #expect(await inbox.wait { $0.contains { $0.address == "/sys/update" && $0.arguments == [.int32(0)] } })
        let udp = try fixture.peer()
        udp.send("/knob/pan", [.float32(0.75)])
        #expect(await inbox.wait { $0.contains { $0.address == "/knob/pan" && close($0.float, 0.75) } })
        #expect(fixture.statistic("subscribers") == 2)
    }

    @Test func closedConnectionEndsItsSubscription() async throws {
        let fixture = try ServerFixture()
        let (connection, inbox) = try await connect(fixture, framing: .slip)
        connection.send(OSCMessage("/knob/gain").encoded())
        #expect(await inbox.wait { $0.contains { $0.address == "/sys/update" } })
        connection.close()
        let deadline = ContinuousClock.now + .seconds(5)
        while fixture.statistic("subscribers") != 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(fixture.statistic("subscribers") == 0)
    }

    @Test func oversizedFrameClosesOnlyThatConnection() async throws {
        let fixture = try ServerFixture { $0.maxFrameLength = 1024 }
        let (big, bigInbox) = try await connect(fixture, framing: .lengthPrefix)
        let (small, smallInbox) = try await connect(fixture, framing: .lengthPrefix)
        defer { small.close() }
        big.send(OSCMessage("/knob/gain", [.blob(Array(repeating: 7, count: 4096))]).encoded())
        let deadline = ContinuousClock.now + .seconds(5)
        while bigInbox.closed.withLock({ $0 }) == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(bigInbox.closed.withLock { $0 } != nil)
        #expect(fixture.statistic("oversizedFrame") == 1)
        small.send(OSCMessage("/sys/ping").encoded())
        #expect(await smallInbox.wait { $0.contains { $0.address == "/sys/pong" } })
    }

    @Test func tcpSubscriptionURLMeansTheConnectionItself() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let (connection, inbox) = try await connect(fixture, framing: .slip)
        defer { connection.close() }
        connection.send(
            OSCMessage("/sys/subscribe", [.string("osc.tcp://127.0.0.1:1/"), .string("/knob/pan")]).encoded())
        #expect(await inbox.wait { $0.contains { $0.address == "/sys/update" && $0.arguments == [.int32(0)] } })
        fixture.tree.parameter(forKeyPath: "knob.pan")!.setValue(50)
        #expect(await inbox.wait { $0.contains { $0.address == "/knob/pan" && close($0.float, 1) } })
        let udp = try fixture.peer()
        udp.send("/sys/subscribe", [.string("osc.tcp://127.0.0.1:1/")])
        #expect(await udp.next("/sys/error")?.arguments.first == .string("/sys/subscribe"))
    }

    @Test func otherProtocolsAreClosedAndCounted() async throws {
        let fixture = try ServerFixture()
        let (connection, inbox) = try await connect(fixture, framing: .slip)
        // A TLS ClientHello: neither OSC framing nor an HTTP method (HTTP is served: HTTPServerTests).
        connection.write([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03])
        let deadline = ContinuousClock.now + .seconds(5)
        while inbox.closed.withLock({ $0 }) == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(inbox.closed.withLock { $0 } != nil)
        #expect(fixture.statistic("otherProtocol") == 1)
    }
}
