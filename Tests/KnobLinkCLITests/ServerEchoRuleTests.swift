import Foundation
import OSCCore
import Testing

/// The echo rules E1–E5 of PROTOCOL.md section 4, each on its own, with peers on loopback under
/// `--feedback-port auto` (each socket is a peer of its own).
@Suite(.serialized, .offThePool) struct ServerEchoRuleTests {
    static func server(_ arguments: [String] = []) throws -> ServeProcess {
        try ServeProcess(["--feedback-port", "auto"] + arguments)
    }

    /// Subscribes `peer` explicitly, waits for the current values, and forgets them.
    static func subscribe(
        _ peer: UDPTestPeer, pattern: String = "", hz: Float = 0, flags: Int32 = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        peer.clear()
        peer.send("/sys/subscribe", [.string(peer.url), .string(pattern), .float32(hz), .int32(flags)])
        #expect(peer.waitForUpdateEnd(), "no /sys/update i 0 after subscribing", sourceLocation: sourceLocation)
        peer.clear()
    }

    /// The values received for `address`, in order.
    static func values(_ peer: UDPTestPeer, _ address: String) -> [Double] {
        peer.messages(to: address).compactMap(\.number)
    }

    static func isClose(_ value: Double?, _ expected: Double) -> Bool {
        value.map { abs($0 - expected) < 1e-5 } ?? false
    }

    @Test func e1ChangesFanOutToEveryMatchingSubscriber() throws {
        let server = try Self.server()
        let all = try UDPTestPeer(server: server.port)
        let knobs = try UDPTestPeer(server: server.port)
        let toggles = try UDPTestPeer(server: server.port)
        let setter = try UDPTestPeer(server: server.port)
        Self.subscribe(all)
        Self.subscribe(knobs, pattern: "/knob/*")
        Self.subscribe(toggles, pattern: "/toggle/*")
        setter.send("/knob/gain", 0.25)
        setter.send("/toggle/monophonic", 1)
        #expect(all.wait { $0.contains(OSCMessage("/toggle/monophonic", [.float32(1)])) })
        #expect(knobs.wait { $0.contains(OSCMessage("/knob/gain", [.float32(0.25)])) })
        #expect(toggles.wait { $0.contains(OSCMessage("/toggle/monophonic", [.float32(1)])) })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.values(all, "/knob/gain") == [0.25])
        #expect(knobs.messages(to: "/toggle/monophonic").isEmpty)
        #expect(toggles.messages(to: "/knob/gain").isEmpty)
        #expect(server.terminate() == 0)
    }

    @Test func e2TheOriginatorDoesNotGetItsChangeBackUnlessFlag8() throws {
        let server = try Self.server()
        let setter = try UDPTestPeer(server: server.port)
        let other = try UDPTestPeer(server: server.port)
        // An implicit subscription: the first set makes the setter a subscriber.
        setter.send("/knob/gain", 0.3)
        #expect(setter.waitForUpdateEnd(), "no implicit subscription")
        setter.send("/knob/gain", 0.35)
        other.send("/knob/pan", 0.2)
        #expect(setter.wait { $0.contains(OSCMessage("/knob/pan", [.float32(0.2)])) }, "the setter is not subscribed")
        Thread.sleep(forTimeInterval: 0.4)
        #expect(!Self.values(setter, "/knob/gain").contains { Self.isClose($0, 0.35) }, "\(setter.messages)")

        let echoing = try UDPTestPeer(server: server.port)
        Self.subscribe(echoing, flags: 1 | 8)
        echoing.send("/knob/gain", 0.4)
        #expect(echoing.wait { $0.contains(OSCMessage("/knob/gain", [.float32(0.4)])) }, "no flag-8 echo")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.values(echoing, "/knob/gain") == [Double(Float(0.4))])
        #expect(server.terminate() == 0)
    }

    @Test func e3TheOriginatorGetsOneCorrectionAndOthersOnlyRealChanges() throws {
        let server = try Self.server()
        let setter = try UDPTestPeer(server: server.port)
        let watcher = try UDPTestPeer(server: server.port)
        Self.subscribe(setter)
        Self.subscribe(watcher)
        setter.send("/knob/gain", 1.7)
        #expect(setter.waitForMessage("/knob/gain") == OSCMessage("/knob/gain", [.float32(1)]))
        #expect(watcher.waitForMessage("/knob/gain") == OSCMessage("/knob/gain", [.float32(1)]))
        // Again, already at 1: a correction for the setter (9.5), nothing for the watcher.
        setter.send("/knob/gain", 1.7)
        #expect(setter.waitForMessage("/knob/gain", after: 1) == OSCMessage("/knob/gain", [.float32(1)]))
        // Quantised: a boolean takes 1.
        setter.send("/toggle/retrigger", 0.7)
        #expect(setter.waitForMessage("/toggle/retrigger") == OSCMessage("/toggle/retrigger", [.float32(1)]))
        setter.send("/knob/gain/raw", -100)
        #expect(setter.waitForMessage("/knob/gain/raw") == OSCMessage("/knob/gain/raw", [.float32(-60)]))
        // An exact value gets no correction.
        setter.send("/knob/pan", 0.5)
        setter.send("/knob/pan", 0.25)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.values(setter, "/knob/gain") == [1, 1])
        #expect(Self.values(setter, "/toggle/retrigger") == [1])
        #expect(setter.messages(to: "/knob/pan").isEmpty, "\(setter.messages)")
        #expect(Self.values(watcher, "/knob/gain") == [1, 0])
        #expect(Self.values(watcher, "/knob/pan") == [0.25])
        #expect(Self.values(watcher, "/toggle/retrigger") == [1])
        #expect(server.terminate() == 0)
    }

    /// A refused write changes nothing and is answered with `/sys/error`, not a correction (9.2).
    @Test func refusedWriteGetsAnErrorAndNoCorrection() throws {
        let server = try Self.server()
        let setter = try UDPTestPeer(server: server.port)
        let watcher = try UDPTestPeer(server: server.port)
        Self.subscribe(setter)
        Self.subscribe(watcher)
        setter.send("/knob/gain", [.float32(.nan)])
        let error = setter.waitForMessage("/sys/error")
        #expect(error?.strings.first == "/knob/gain", "\(String(describing: error))")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(setter.messages(to: "/knob/gain").isEmpty && watcher.messages(to: "/knob/gain").isEmpty)
        #expect(Self.isClose(setter.request("/knob/gain")?.number, 60.0 / 72))
        #expect(server.terminate() == 0)
    }

    @Test(arguments: ["touch", "z"])
    func e4NoFeedbackWhileTouchingThenTheFinalValueOnce(facet: String) throws {
        let server = try Self.server()
        let surface = try UDPTestPeer(server: server.port)
        let other = try UDPTestPeer(server: server.port)
        Self.subscribe(surface)
        surface.send("/knob/gain/\(facet)", [.int32(1)])
        Thread.sleep(forTimeInterval: 0.05)
        for value: Float in [0.1, 0.2, 0.3] {
            other.send("/knob/gain", value)
            Thread.sleep(forTimeInterval: 0.05)
        }
        other.send("/knob/pan", 0.9)
        #expect(surface.wait { $0.contains(OSCMessage("/knob/pan", [.float32(0.9)])) })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(surface.messages(to: "/knob/gain").isEmpty, "feedback while touching: \(surface.messages)")
        surface.send("/knob/gain/\(facet)", [.int32(0)])
        #expect(Self.isClose(surface.waitForMessage("/knob/gain")?.number, 0.3), "\(surface.messages)")
        // Touched and released with no change meanwhile: nothing (9.6).
        surface.send("/knob/pan/\(facet)", [.float32(1)])
        Thread.sleep(forTimeInterval: 0.1)
        surface.send("/knob/pan/\(facet)", [.float32(0)])
        Thread.sleep(forTimeInterval: 0.4)
        #expect(Self.values(surface, "/knob/gain").count == 1)
        #expect(Self.values(surface, "/knob/pan") == [Double(Float(0.9))])
        #expect(server.terminate() == 0)
    }

    /// Without touch messages, feedback for a parameter the peer just set is held for the guard
    /// window and then the latest value is sent (9.6).
    @Test(arguments: [0, 30] as [Float])
    func e4GuardWindowHoldsFeedbackThenSendsTheLatest(hz: Float) throws {
        let server = try Self.server(["--touch-guard-ms", "600"])
        let surface = try UDPTestPeer(server: server.port)
        let other = try UDPTestPeer(server: server.port)
        Self.subscribe(surface, hz: hz)
        let start = ContinuousClock.now
        surface.send("/knob/gain", 0.5)
        Thread.sleep(forTimeInterval: 0.05)
        other.send("/knob/gain", 0.6)
        Thread.sleep(forTimeInterval: 0.05)
        other.send("/knob/gain", 0.65)
        #expect(surface.wait(timeout: .seconds(3)) { $0.contains { $0.address == "/knob/gain" } })
        let first = surface.received.first { $0.message.address == "/knob/gain" }
        #expect(first?.message == OSCMessage("/knob/gain", [.float32(0.65)]), "\(surface.messages)")
        if let first {
            #expect(first.time - start >= .milliseconds(500), "feedback inside the guard window")
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(surface.messages(to: "/knob/gain").count == 1)
        #expect(server.terminate() == 0)
    }

    /// E5: 10,000 changes in a burst reach a 30 Hz subscriber as a bounded number of messages, the
    /// last one carrying the final value; changes due in one tick share a bundle.
    @Test func e5BurstIsCoalescedToTheSubscriptionRate() throws {
        // The burst comes from one peer: lift its rate limit so that every change is applied.
        let server = try Self.server(["--rate-limit", "1000000"])
        let subscriber = try UDPTestPeer(server: server.port)
        let setter = try UDPTestPeer(server: server.port)
        Self.subscribe(subscriber, hz: 30)
        let count = 10_000
        let perBundle = 50
        let start = ContinuousClock.now
        // In bundles, so that the server's receive buffer cannot lose the last change.
        for first in stride(from: 0, to: count, by: perBundle) {
            let elements = (first..<first + perBundle).map { index -> OSCPacket in
                let address = index.isMultiple(of: 2) ? "/knob/gain" : "/knob/pan"
                return .message(OSCMessage(address, [.float32(Float(index + 1) / Float(count + 7))]))
            }
            setter.send(.bundle(OSCBundle(timeTag: .immediately, elements)))
            if first % 1000 == 0 { Thread.sleep(forTimeInterval: 0.002) }
        }
        let finalGain = Float(count - 1) / Float(count + 7)
        let finalPan = Float(count) / Float(count + 7)
        #expect(
            subscriber.wait(timeout: .seconds(10)) {
                $0.last { $0.address == "/knob/gain" }?.number == Double(finalGain)
            })
        #expect(
            subscriber.wait(timeout: .seconds(2)) { $0.last { $0.address == "/knob/pan" }?.number == Double(finalPan) })
        let elapsed = (ContinuousClock.now - start).seconds
        Thread.sleep(forTimeInterval: 0.5)
        let gains = Self.values(subscriber, "/knob/gain")
        let bound = Int(30 * (elapsed + 0.5)) + 2
        #expect(gains.count <= bound, "\(gains.count) messages for /knob/gain in \(elapsed) s")
        #expect(gains.last == Double(finalGain))
        #expect(Self.values(subscriber, "/knob/pan").last == Double(finalPan))
        // Coalesced values of one tick travel together.
        let received = subscriber.received
        let shared = Set(received.filter { $0.message.address == "/knob/gain" }.map(\.datagram))
            .intersection(received.filter { $0.message.address == "/knob/pan" }.map(\.datagram))
        #expect(!shared.isEmpty, "gain and pan never shared a datagram")
        #expect(subscriber.datagramSizes.allSatisfy { $0 <= 8192 })
        #expect(server.terminate() == 0)
    }

    /// A subscription without a rate limit (`maxHz` 0) on a large tree: the current values come in
    /// datagrams within the loopback limit, none lost (9.14).
    @Test func largeRepliesAreSplitIntoDatagramsWithinTheLimit() throws {
        let scratch = try Scratch()
        let tree = try scratch.write("big.json", Self.bigTree(parameters: 600))
        let server = try Self.server(["--tree", tree])
        let subscriber = try UDPTestPeer(server: server.port)
        subscriber.send("/sys/subscribe", [.string(subscriber.url), .string(""), .float32(0), .int32(1 | 2 | 4)])
        #expect(subscriber.waitForUpdateEnd(timeout: .seconds(10)))
        let messages = subscriber.messages
        #expect(messages.count { $0.address.hasPrefix("/big/p") } == 600 * 3)
        #expect(subscriber.datagramCount > 1)
        #expect(subscriber.datagramSizes.allSatisfy { $0 <= 8192 }, "\(subscriber.datagramSizes.max() ?? 0)")
        subscriber.clear()
        subscriber.send("/sys/list")
        #expect(subscriber.waitForUpdateEnd(timeout: .seconds(10)))
        #expect(subscriber.messages(to: "/sys/param").count == 600)
        #expect(subscriber.datagramSizes.allSatisfy { $0 <= 8192 })
        #expect(server.terminate() == 0)
    }

    /// A tree file with one group `big` of `parameters` linear parameters `p0`, `p1`, ….
    static func bigTree(parameters: Int) -> String {
        let children = (0..<parameters).map { index in
            """
            {"kind": "parameter", "identifier": "p\(index)", "displayName": "Parameter number \(index)",
             "address": \(1000 + index), "min": -100, "max": 100, "default": 0, "unit": "decibels",
             "taper": "linear", "flags": ["readable", "writable"]}
            """
        }
        return """
            {"format": "knoblink-tree", "version": 1, "children": [
            {"kind": "group", "identifier": "big", "displayName": "Big", "children": [
            \(children.joined(separator: ",\n"))
            ]}]}
            """
    }

    /// A preset load changes every parameter in one tick: a 30 Hz subscriber of every form gets
    /// each value once, in bundles split to the loopback datagram limit (E5, 9.15).
    @Test func presetLoadOfEveryParameterComesInSplitBundles() throws {
        let scratch = try Scratch()
        let tree = try scratch.write("big.json", Self.bigTree(parameters: 600))
        let presets = try scratch.subdirectory("presets")
        let values = (0..<600).map { "\"big.p\($0)\": \(1 + $0 % 90)" }.joined(separator: ", ")
        try scratch.write(
            "presets/all.json",
            #"{"format": "knoblink-preset", "version": 1, "name": "all", "values": {\#(values)}}"#)
        let server = try Self.server(["--tree", tree, "--presets", presets])
        let subscriber = try UDPTestPeer(server: server.port)
        Self.subscribe(subscriber, hz: 30, flags: 1 | 2 | 4)
        subscriber.send("/sys/preset/load", [.string("all")])
        #expect(subscriber.wait(timeout: .seconds(10)) { $0.count { $0.address.hasPrefix("/big/p") } >= 1800 })
        Thread.sleep(forTimeInterval: 0.3)
        let received = subscriber.received.filter { $0.message.address.hasPrefix("/big/p") }
        #expect(received.count == 1800)
        #expect(Set(received.map(\.message.address)).count == 1800, "a value came twice")
        #expect(received.allSatisfy { $0.inBundle })
        #expect(subscriber.datagramCount > 1)
        #expect(subscriber.datagramSizes.allSatisfy { $0 <= 8192 }, "\(subscriber.datagramSizes.max() ?? 0) bytes")
        let p7 = subscriber.messages(to: "/big/p7/raw").first?.number
        #expect(p7 == 8, "\(String(describing: p7))")
        #expect(server.terminate() == 0)
    }
}
