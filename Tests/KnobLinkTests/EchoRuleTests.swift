import Locking
import OSCCore
import Parameters
import Testing

@testable import KnobLink

/// PROTOCOL.md section 4 and rules 9.5–9.7: each echo rule on its own.
@Suite struct EchoRuleTests {
    @Test func fanOutReachesEveryMatchingSubscriber() async throws {
        let fixture = try ServerFixture { $0.implicitSubscriptions = false }
        let all = try fixture.peer()
        let knobs = try fixture.peer()
        let toggles = try fixture.peer()
        let sender = try fixture.peer()
        await all.subscribe()
        await knobs.subscribe(pattern: "/knob/*")
        await toggles.subscribe(pattern: "/toggle/*")
        sender.send("/knob/pan", [.float32(0.25)])
        #expect(close(await all.next("/knob/pan")?.float, 0.25))
        #expect(close(await knobs.next("/knob/pan")?.float, 0.25))
        await toggles.sync()
        #expect(toggles.messages("/knob/pan").isEmpty)
    }

    @Test func noEchoToTheOriginatorUnlessFlag8() async throws {
        let fixture = try ServerFixture()
        let quiet = try fixture.peer()
        let echoed = try fixture.peer()
        await quiet.subscribe()
        await echoed.subscribe(flags: 1 | 8)
        quiet.send("/knob/pan", [.float32(0.1)])
        echoed.send("/knob/gain", [.float32(0.2)])
        #expect(close(await echoed.next("/knob/gain")?.float, 0.2))
        #expect(close(await quiet.next("/knob/gain")?.float, 0.2))
        await quiet.sync()
        #expect(quiet.messages("/knob/pan").isEmpty)
        #expect(echoed.messages("/knob/pan").count == 1)
    }

    @Test func correctionGoesToTheOriginatorOnlyAndUnchangedValuesAreNotResent() async throws {
        let fixture = try ServerFixture()
        let sender = try fixture.peer()
        let other = try fixture.peer()
        await sender.subscribe()
        await other.subscribe()
        sender.send("/knob/pan", [.float32(1.5)])
        #expect(close(await sender.next("/knob/pan")?.float, 1))
        #expect(close(await other.next("/knob/pan")?.float, 1))
        sender.clear()
        other.clear()
        // Already at 1: the sender is corrected again, the other hears nothing.
        sender.send("/knob/pan", [.float32(1.5)])
        #expect(close(await sender.next("/knob/pan")?.float, 1))
        await other.sync()
        #expect(other.messages("/knob/pan").isEmpty)
    }

    @Test func touchHoldsFeedbackAndSendsTheFinalValueOnRelease() async throws {
        let fixture = try ServerFixture()
        let toucher = try fixture.peer()
        let other = try fixture.peer()
        await toucher.subscribe()
        toucher.send("/knob/pan/touch", [.int32(1)])
        await toucher.sync()
        other.send("/knob/pan", [.float32(0.3)])
        other.send("/knob/pan", [.float32(0.6)])
        await other.sync()
        try await Task.sleep(for: .milliseconds(50))
        #expect(toucher.messages("/knob/pan").isEmpty)
        toucher.send("/knob/pan/z", [.float32(0)])
        #expect(close(await toucher.next("/knob/pan")?.float, 0.6))
        await toucher.sync()
        #expect(toucher.messages("/knob/pan").count == 1)
    }

    @Test func releaseWithoutChangeSendsNothing() async throws {
        let fixture = try ServerFixture()
        let toucher = try fixture.peer()
        await toucher.subscribe()
        toucher.send("/knob/pan/touch", [.true])
        toucher.send("/knob/pan", [.float32(0.4)])
        toucher.send("/knob/pan/touch", [.false])
        await toucher.sync()
        try await Task.sleep(for: .milliseconds(200))
        #expect(toucher.messages("/knob/pan").isEmpty)
    }

    @Test func guardWindowHoldsFeedbackThenSendsTheLatest() async throws {
        let fixture = try ServerFixture { $0.touchGuardMilliseconds = 1000 }
        let setter = try fixture.peer()
        let other = try fixture.peer()
        await setter.subscribe()
        let start = ContinuousClock.now
        setter.send("/knob/pan", [.float32(0.2)])
        await setter.sync()
        other.send("/knob/pan", [.float32(0.7)])
        other.send("/knob/pan", [.float32(0.8)])
        await other.sync()
        // Held while the window lasts; on a loaded machine the round trips above can outlast it.
        if ContinuousClock.now - start < .milliseconds(900) {
            #expect(setter.messages("/knob/pan").isEmpty)
        }
        let value = await setter.next("/knob/pan")
        #expect(close(value?.float, 0.8))
        #expect(ContinuousClock.now - start >= .milliseconds(990))
        #expect(setter.messages("/knob/pan").count == 1)
    }

    @Test func flag8EchoIsNotHeldByTheGuard() async throws {
        let fixture = try ServerFixture { $0.touchGuardMilliseconds = 2000 }
        let setter = try fixture.peer()
        await setter.subscribe(flags: 1 | 8)
        setter.send("/knob/pan", [.float32(0.2)])
        #expect(close(await setter.next("/knob/pan", seconds: 1)?.float, 0.2))
    }

    @Test func burstCoalescesToTheRateWithTheFinalValueLast() async throws {
        let fixture = try ServerFixture()
        let subscriber = try fixture.peer()
        await subscriber.subscribe(maxHz: 30)
        let pan = fixture.tree.parameter(forKeyPath: "knob.pan")!
        let start = ContinuousClock.now
        for step in 0..<10_000 { pan.setValue(Float(step % 100) - 49.5) }
        pan.setValue(17)
        let elapsed = ContinuousClock.now - start
        let final = Float(pan.normalizedValue)
        #expect(await subscriber.wait { $0.last { $0.address == "/knob/pan" }?.float == final })
        try await Task.sleep(for: .milliseconds(100))
        let count = subscriber.messages("/knob/pan").count
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(count <= 3 + Int(seconds * 30) + 2)
        #expect(subscriber.messages("/knob/pan").last?.float == final)
    }

    @Test func remoteBurstCoalescesToo() async throws {
        let fixture = try ServerFixture { $0.rateLimit = 1_000_000 }
        let subscriber = try fixture.peer()
        let sender = try fixture.peer()
        await subscriber.subscribe(maxHz: 30)
        let start = ContinuousClock.now
        for batch in 0..<100 {
            let messages = (0..<100).map { step in
                OSCPacket.message(OSCMessage("/knob/pan/raw", [.float32(Float((batch * 100 + step) % 90) - 45)]))
            }
            sender.send(packet: .bundle(OSCBundle(timeTag: .immediately, messages)))
        }
        sender.send("/knob/pan/raw", [.float32(17)])
        await sender.sync()
        let elapsed = ContinuousClock.now - start
        let final = Float(fixture.tree.parameter(forKeyPath: "knob.pan")!.normalize(17))
        #expect(await subscriber.wait { close($0.last { $0.address == "/knob/pan" }?.float, final) })
        try await Task.sleep(for: .milliseconds(100))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(subscriber.messages("/knob/pan").count <= 3 + Int(seconds * 30) + 2)
        #expect(fixture.statistic("setsApplied") >= 9_000)
    }

    @Test func unlimitedSubscriberGetsABatchOfSetsInFewerPackets() async throws {
        let fixture = try ServerFixture {
            $0.rateLimit = 1_000_000
            $0.implicitSubscriptions = false
        }
        let subscriber = try fixture.peer()
        let sender = try fixture.peer()
        await subscriber.subscribe(maxHz: 0)
        let datagrams = (0..<1000).map { step in
            OSCMessage("/knob/pan/raw", [.float32(Float(step % 90) - 45)]).encoded()
        }
        _ = try sender.client.send(contentsOf: datagrams)
        sender.send("/knob/pan/raw", [.float32(17)])
        let final = Float(fixture.tree.parameter(forKeyPath: "knob.pan")!.normalize(17))
        #expect(await subscriber.wait { close($0.last { $0.address == "/knob/pan" }?.float, final) })
        // Datagrams read in one batch share one packet of feedback (E5); every value is the latest.
        #expect(subscriber.packetCount < 900)
    }

    @Test func changesDueTogetherTravelInOneBundle() async throws {
        let fixture = try ServerFixture()
        let subscriber = try fixture.peer()
        let sender = try fixture.peer()
        await subscriber.subscribe()
        sender.send(
            packet: .bundle(
                OSCBundle(
                    timeTag: .immediately,
                    [
                        .message(OSCMessage("/knob/pan", [.float32(0.1)])),
                        .message(OSCMessage("/knob/gain", [.float32(0.2)])),
                        .message(OSCMessage("/amp/sustain", [.float32(0.3)])),
                    ])))
        #expect(await subscriber.wait { $0.count == 3 })
        #expect(subscriber.packetCount == 1)
    }

    @Test func changesWithinOneIntervalTravelInOnePacket() async throws {
        let fixture = try ServerFixture()
        let subscriber = try fixture.peer()
        await subscriber.subscribe(maxHz: 0.5)
        let tree = fixture.tree
        tree.parameter(forKeyPath: "knob.pan")!.setValue(10)
        #expect(await subscriber.wait { $0.count == 1 })
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-10)
        try await Task.sleep(for: .milliseconds(20))
        tree.parameter(forKeyPath: "amp.sustain")!.setValue(10)
        #expect(await subscriber.wait { $0.count == 3 })
        #expect(subscriber.packetCount == 2)
        #expect(subscriber.messages.map(\.address) == ["/knob/pan", "/knob/gain", "/amp/sustain"])
    }

    @Test func subscriptionFormsStringsRawAndTouch() async throws {
        let fixture = try ServerFixture()
        let subscriber = try fixture.peer()
        let sender = try fixture.peer()
        await subscriber.subscribe(flags: 2 | 4 | 16)
        sender.send("/knob/gain/touch", [.int32(1)])
        sender.send("/knob/gain/raw", [.float32(-6)])
        #expect(await subscriber.next("/knob/gain/str")?.string == "-6 dB")
        #expect(close(await subscriber.next("/knob/gain/raw")?.float, -6))
        #expect(await subscriber.next("/knob/gain/touch")?.arguments == [.int32(1)])
        #expect(subscriber.messages("/knob/gain").isEmpty)
    }

    @Test func localChangesReachSubscribersAndRemoteChangesReachObservers() async throws {
        let fixture = try ServerFixture()
        let subscriber = try fixture.peer()
        await subscriber.subscribe()
        let gain = fixture.tree.parameter(forKeyPath: "knob.gain")!
        gain.setValue(-24)
        #expect(close(await subscriber.next("/knob/gain")?.float, Float(gain.normalize(-24))))
        let heard = Locked<[Float]>([])
        let token = fixture.tree.token(byAddingParameterObserver: { change in
            if change.eventType == .value { heard.withLock { $0.append(change.value) } }
        })
        defer { fixture.tree.removeParameterObserver(token) }
        subscriber.send("/knob/gain/raw", [.float32(-3)])
        await subscriber.sync()
        #expect(heard.withLock { $0 } == [-3])
    }

    @Test func implicitSubscriberGetsCurrentValuesThenChanges() async throws {
        let fixture = try ServerFixture()
        let controller = try fixture.peer()
        let other = try fixture.peer()
        controller.send("/knob/pan")
        #expect(await controller.wait { $0.contains { $0.address == "/sys/update" && $0.arguments == [.int32(0)] } })
        let messages = controller.messages
        #expect(messages.first { $0.address == "/sys/update" }?.arguments == [.int32(1)])
        #expect(messages.contains { $0.address == "/knob/gain" })
        controller.clear()
        other.send("/knob/gain", [.float32(0.9)])
        #expect(close(await controller.next("/knob/gain")?.float, 0.9))
    }

    @Test func implicitSubscriptionExpires() async throws {
        let fixture = try ServerFixture { $0.implicitExpiry = 0.5 }
        let controller = try fixture.peer()
        let other = try fixture.peer()
        let start = ContinuousClock.now
        controller.send("/knob/pan", [.float32(0.5)])
        await controller.wait { $0.contains { $0.address == "/sys/update" } }
        let deadline = ContinuousClock.now + .seconds(5)
        while fixture.statistic("implicitExpired") == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(fixture.statistic("implicitExpired") == 1)
        #expect(ContinuousClock.now - start >= .milliseconds(450))
        controller.clear()
        other.send("/knob/gain", [.float32(0.9)])
        await other.sync()
        try await Task.sleep(for: .milliseconds(50))
        #expect(controller.messages("/knob/gain").isEmpty)
    }

    @Test func explicitSubscriptionReplacesTheImplicitOne() async throws {
        let fixture = try ServerFixture()
        let controller = try fixture.peer()
        let other = try fixture.peer()
        controller.send("/knob/pan", [.float32(0.5)])
        await controller.sync()
        await controller.subscribe(flags: 4)
        other.send("/knob/gain/raw", [.float32(-12)])
        #expect(close(await controller.next("/knob/gain/raw")?.float, -12))
        await other.sync()
        try await Task.sleep(for: .milliseconds(50))
        #expect(controller.messages("/knob/gain").isEmpty)
        #expect(controller.messages("/knob/gain/raw").count == 1)
    }
}
