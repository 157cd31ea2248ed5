import KnobLink
import OSCCore
import OSCTransport
import Parameters
import Testing

/// PROTOCOL.md sections 1 and 8, rules 9.2, 9.11 and 9.12: allow-list, rate limit, caps, hostile input.
@Suite struct LimitTests {
    @Test func peersOutsideTheAllowListAreDroppedAndCounted() async throws {
        let fixture = try ServerFixture { $0.allowList = try! AllowList(parsing: ["10.0.0.0/8"]) }
        let peer = try fixture.peer()
        peer.send("/knob/pan", [.float32(1)])
        peer.send("/sys/ping")
        try await Task.sleep(for: .milliseconds(200))
        #expect(peer.messages.isEmpty)
        #expect(fixture.tree.parameter(forKeyPath: "knob.pan")!.value == 0)
        #expect(fixture.statistic("disallowedPeer") == 2)
    }

    @Test func rateLimitDropsTheExcessWithABurstOfErrors() async throws {
        let fixture = try ServerFixture {
            $0.rateLimit = 50
            $0.implicitSubscriptions = false
        }
        let peer = try fixture.peer()
        for step in 0..<200 { peer.send("/knob/pan/raw", [.float32(Float(step % 50))]) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(fixture.statistic("rateLimited") >= 100)
        #expect(peer.messages("/sys/error").count == 10)
        #expect(peer.messages("/sys/error").first?.arguments.last == .string("rate limit exceeded"))
        #expect(fixture.statistic("errorsSuppressed") >= 90)
    }

    /// Rule 9.2: a script that sends a few bad lines sees every error; past the burst of 10, one a
    /// second, and the next one sent says how many were not.
    @Test func errorsComeInABurstOfTenThenOneASecond() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let script = try fixture.peer()
        for index in 0..<3 { script.send("/nowhere/\(index)") }
        await script.sync()
        #expect(script.messages("/sys/error").map { $0.arguments.first } == (0..<3).map { .string("/nowhere/\($0)") })
        // Twelve bad messages at one instant (one bundle): ten errors, two not sent.
        let peer = try fixture.peer()
        let bad = (0..<12).map { OSCPacket.message(OSCMessage("/nowhere/\($0)")) }
        peer.send(packet: .bundle(OSCBundle(timeTag: .immediately, bad)))
        await peer.sync()
        #expect(peer.messages("/sys/error").count == 10)
        #expect(fixture.statistic("errorsSuppressed") == 2)
        try await Task.sleep(for: .milliseconds(1100))
        peer.clear()
        peer.send("/nowhere/last")
        let error = await peer.next("/sys/error")
        #expect(error?.arguments == [.string("/nowhere/last"), .string("unknown address (2 more not sent)")])
    }

    @Test func subscriberCapRefusesTheNextSubscription() async throws {
        let fixture = try ServerFixture { $0.maxPeers = 2 }
        let first = try fixture.peer()
        let second = try fixture.peer()
        let third = try fixture.peer()
        await first.subscribe()
        await second.subscribe()
        third.send("/sys/subscribe", [.string(third.url)])
        #expect(await third.next("/sys/error")?.arguments.first == .string("/sys/subscribe"))
        // An implicit subscriber counts too.
        third.send("/knob/pan", [.float32(0.5)])
        await third.sync()
        #expect(fixture.statistic("subscribers") == 2)
        #expect(fixture.statistic("subscriberCap") == 2)
    }

    @Test func malformedFloodIsCountedAndTheServerStaysUp() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        let start = ContinuousClock.now
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 1...64, using: &generator)
            peer.send(bytes: (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        peer.send(bytes: Array("/a\0\0,q\0\0".utf8))
        await peer.sync()
        #expect(fixture.statistic("malformed") >= 1500)
        let errors = peer.messages("/sys/error")
        // A burst of 10, then one a second at most (rule 9.2).
        #expect(errors.count <= 10 + (ContinuousClock.now - start).components.seconds)
        #expect(errors.first?.arguments.first == .string(""))
        let query = await peer.request("/knob/gain/raw", reply: "/knob/gain/raw")
        #expect(query?.float == 0)
    }

    @Test(arguments: [8, 9])
    func bundlesNestedTooDeepAreDroppedWhole(depth: Int) async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        var packet = OSCPacket.message(OSCMessage("/knob/pan", [.float32(1)]))
        for _ in 0..<depth { packet = .bundle(OSCBundle(timeTag: .immediately, [packet])) }
        peer.send(packet: packet)
        await peer.sync()
        let applied = fixture.tree.parameter(forKeyPath: "knob.pan")!.value == 50
        #expect(applied == (depth <= 8))
        #expect(fixture.statistic("tooDeep") == (depth <= 8 ? 0 : 1))
        if depth > 8 { #expect(peer.messages("/sys/error").first?.arguments.first == .string("")) }
    }

    @Test func futureBundlesApplyAtTheirTime() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        let sent = ContinuousClock.now
        let when = OSCTimeTag(secondsSince1970: OSCReceiver.now().secondsSince1970 + 1.5)
        peer.send(packet: .bundle(OSCBundle(timeTag: when, [.message(OSCMessage("/knob/pan", [.float32(1)]))])))
        let pan = fixture.tree.parameter(forKeyPath: "knob.pan")!
        let deadline = sent + .seconds(6)
        while pan.value != 50 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(pan.value == 50)
        #expect(ContinuousClock.now - sent >= .milliseconds(1400))
    }

    @Test func thePeerTableIsBounded() async throws {
        let fixture = try ServerFixture {
            $0.maxPeers = 2
            $0.implicitSubscriptions = false
        }
        var senders: [TestPeer] = []
        for _ in 0..<300 {
            let peer = try fixture.peer()
            peer.send("/sys/ping")
            senders.append(peer)
        }
        await senders.last!.sync()
        #expect(fixture.statistic("peers") <= 256)
        #expect(fixture.statistic("peerTableEvictions") >= 44)
    }
}
