import Locking
import OSCCore
import OSCTransport
import Parameters
import Testing

@testable import KnobLink

/// Issue 9, items 3 and 5: urls are held to the allow list, a destination that never sent
/// anything gets at most three times the bytes that named it, such subscriptions expire, and one
/// host holds at most eight urls other than its own.
@Suite struct ReflectionTests {
    /// A server that trusts 127.0.0.1 alone, so that 127.0.0.2 stands for a far address.
    static func fixture(_ adjust: (inout KnobLinkServer.Configuration) -> Void = { _ in }) throws -> ServerFixture {
        try ServerFixture {
            $0.trusted = try! AllowList(parsing: ["127.0.0.1/32"])
            adjust(&$0)
        }
    }

    /// Sends `message` from `peer` and returns its size in bytes.
    static func send(_ peer: TestPeer, _ address: String, _ arguments: [OSCArgument]) -> Int {
        let message = OSCMessage(address, arguments)
        peer.send(packet: .message(message))
        return message.encoded().count
    }

    @Test func urlsOutsideTheAllowListAreRefused() async throws {
        let fixture = try ServerFixture { $0.allowList = try! AllowList(parsing: ["127.0.0.1/32"]) }
        let victim = try SilentListener(host: "127.0.0.2")
        let attacker = try fixture.peer()
        for address in ["/sys/subscribe", "/sys/list", "/wave/sub", "/knob/gain/get"] {
            attacker.send(address, [.string(victim.url)])
        }
        await attacker.sync()
        let errors = attacker.messages("/sys/error")
        #expect(errors.count == 4)
        #expect(errors.allSatisfy { "\($0.arguments.last!)".contains("outside the allow list") })
        #expect(fixture.statistic("urlOutsideAllowList") == 4)
        try await Task.sleep(for: .milliseconds(100))
        #expect(victim.datagrams == 0)
    }

    @Test func anUnheardDestinationGetsAtMostThreeTimesTheRequests() async throws {
        let fixture = try Self.fixture()
        let victim = try SilentListener(host: "127.0.0.2")
        let attacker = try fixture.peer()
        var sent = 0
        for _ in 0..<20 {
            sent += Self.send(attacker, "/wave/sub", [.string(victim.url), .int32(65536)])
            sent += Self.send(attacker, "/sys/subscribe", [.string(victim.url), .string(""), .float32(0), .int32(31)])
            sent += Self.send(attacker, "/sys/list", [.string(victim.url)])
        }
        for step in 0..<50 { sent += Self.send(attacker, "/knob/gain", [.float32(Float(step) / 50)]) }
        await attacker.sync()
        try await Task.sleep(for: .milliseconds(500))
        #expect(victim.bytes <= 3 * sent, "\(victim.bytes) bytes for \(sent) sent")
        #expect(fixture.statistic("amplificationLimited") > 0)
    }

    @Test func aHostThatSentSomethingGetsItsWholeReply() async throws {
        let fixture = try Self.fixture()
        let listener = try SilentListener(host: "127.0.0.2")
        try listener.greet(port: fixture.port)
        try await Task.sleep(for: .milliseconds(100))
        let before = listener.bytes
        let requester = try fixture.peer()
        let sent = Self.send(requester, "/sys/list", [.string(listener.url)])
        await requester.sync()
        try await Task.sleep(for: .milliseconds(100))
        #expect(listener.bytes - before > 3 * sent)
        #expect(fixture.statistic("amplificationLimited") == 0)
    }

    @Test func subscriptionsOfAnUnheardDestinationExpire() async throws {
        // Long enough that the subscriptions are still there when the test looks, on a busy machine.
        let fixture = try Self.fixture { $0.implicitExpiry = 2 }
        let victim = try SilentListener(host: "127.0.0.2")
        let logged = Locked<[String]>([])
        fixture.server.log = { event in logged.withLock { $0.append(event.message) } }
        let attacker = try fixture.peer()
        attacker.send("/sys/subscribe", [.string(victim.url)])
        attacker.send("/wave/sub", [.string(victim.url)])
        await attacker.sync()
        // Both subscriptions were made (whether or not they have expired yet on a busy machine).
        let made = logged.withLock { $0 }.filter { $0.contains(victim.socket.localAddress.description) }
        #expect(made.contains { $0.hasSuffix(" subscribed") })
        #expect(made.contains { $0.hasSuffix("subscribed to the wave stream") })
        var expired = false
        for _ in 0..<300 where !expired {
            try await Task.sleep(for: .milliseconds(20))
            expired = fixture.statistic("subscribers") == 0 && fixture.statistic("waveSubscribers") == 0
        }
        #expect(expired)
        #expect(fixture.statistic("unheardExpired") == 1)
    }

    @Test func aHostHoldsAtMostEightURLsOtherThanItsOwn() async throws {
        let fixture = try ServerFixture()
        let listeners = try (0..<9).map { _ in try SilentListener(host: "127.0.0.1") }
        let requester = try fixture.peer()
        for listener in listeners { requester.send("/sys/subscribe", [.string(listener.url)]) }
        await requester.sync()
        #expect(fixture.statistic("subscribers") == 8)
        let errors = requester.messages("/sys/error")
        #expect(errors.count == 1)
        let reason = errors.first.map { "\($0.arguments)" } ?? ""
        #expect(reason.contains("too many subscription urls"))
        // Its own url, and the ones it already holds, are still welcome.
        await requester.subscribe()
        requester.send("/sys/subscribe", [.string(listeners[0].url), .string("/knob/*")])
        requester.send("/wave/sub", [.string(listeners[8].url)])
        await requester.sync()
        #expect(fixture.statistic("subscribers") == 9)
        #expect(fixture.statistic("waveSubscribers") == 0)
        #expect(fixture.statistic("urlsPerHostCap") == 2)
    }
}
