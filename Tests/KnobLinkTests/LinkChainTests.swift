import Foundation
import KnobLink
import OSCCore
import OSCTransport
import Parameters
import Synchronization
import Testing

/// Real instances on loopback, linked the way `--link` links them, with every datagram counted.
@Suite(.serialized) struct LinkChainTests {
    /// An instance with a counter of the value changes its tree sees for `/knob/gain`.
    final class Instance: @unchecked Sendable {
        let server: KnobLinkServer
        let changes = Atomic<Int>(0)
        var gain: Parameter { server.tree.parameter(forKeyPath: "knob.gain")! }
        var url: OSCURL { OSCURL(host: "127.0.0.1", port: server.port) }

        init(port: UInt16 = 0, links: [LinkConfiguration] = [], name: String? = nil, root: String = "") throws {
            var configuration = KnobLinkServer.Configuration()
            configuration.port = port
            configuration.bindHost = "127.0.0.1"
            configuration.feedbackPort = .auto
            configuration.links = links
            configuration.name = name
            configuration.root = root
            server = try KnobLinkServer(tree: ParameterTree.makeDefault(), configuration: configuration)
            _ = gain.token { [weak self] change in
                if change.eventType == .value { self?.changes.add(1, ordering: .relaxed) }
            }
            try server.start()
        }

        deinit { server.stop() }

        func statistic(_ name: String) -> Int { server.statistics().first { $0.name == name }?.value ?? -1 }
        var sent: Int { statistic("packetsSent") }
        var received: Int { statistic("packetsReceived") }
        var changeCount: Int { changes.load(ordering: .relaxed) }

        /// Whether the gain is `value`, give or take the rounding of normalising at each hop.
        func hasGain(_ value: Float) -> Bool { abs(gain.value - value) < 1e-3 }
    }

    /// Polls `condition` every 5 ms for up to `seconds`.
    static func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    /// Waits until the counters stop moving for `quiet` seconds (the network went quiet).
    static func settle(_ instances: [Instance], quiet: Double = 0.3) async {
        var last = instances.map { $0.sent + $0.received }
        var still = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            let now = instances.map { $0.sent + $0.received }
            if now != last {
                last = now
                still = ContinuousClock.now
            } else if ContinuousClock.now - still >= .milliseconds(Int(quiet * 1000)) {
                return
            }
        }
    }

    static func total(_ instances: [Instance], _ counter: (Instance) -> Int) -> Int {
        instances.map(counter).reduce(0, +)
    }

    @Test func ringOfThreeDeliversEachChangeOnceAndGoesQuiet() async throws {
        let ring = try (0..<3).map { _ in try Instance() }
        for index in ring.indices {
            try ring[index].server.link(to: ring[(index + 1) % 3].url, twoWay: true)
        }
        // Each instance links to the next, and the announcement makes the next link back.
        #expect(await Self.eventually { ring.allSatisfy { $0.server.links.count == 2 } })
        await Self.settle(ring)

        for (step, origin) in ring.enumerated() {
            let sentBefore = Self.total(ring) { $0.sent }
            let receivedBefore = Self.total(ring) { $0.received }
            let changesBefore = ring.map(\.changeCount)
            let target = Float(-50 + 10 * step)
            origin.gain.setValue(target)
            #expect(await Self.eventually { ring.allSatisfy { $0.hasGain(target) } })
            await Self.settle(ring)
            // Exactly once everywhere: the origin's own set and one application at each other instance.
            #expect(ring.map(\.changeCount) == changesBefore.map { $0 + 1 })
            // The origin sends to both neighbours; each forwards once to the third, which has the
            // value already (convergence) and sends nothing more. Four datagrams, then silence.
            #expect(Self.total(ring) { $0.sent } - sentBefore == 4)
            #expect(Self.total(ring) { $0.received } - receivedBefore == 4)
        }
        // Each of the two forwards meets a value that is already there (convergence), or, when the
        // forward overtook the direct bundle, goes on to the origin, which finds itself in the hop
        // list and drops it.
        let stopped = Self.total(ring) {
            $0.server.linkStatistics.valuesConverged + $0.server.linkStatistics.loopsDropped
        }
        #expect(stopped == 6)
        #expect(Self.total(ring) { $0.server.linkStatistics.valuesApplied } == 6)
    }

    @Test func ringStaysQuietUnderABurst() async throws {
        let ring = try (0..<3).map { _ in try Instance() }
        for index in ring.indices { try ring[index].server.link(to: ring[(index + 1) % 3].url) }
        #expect(await Self.eventually { ring.allSatisfy { $0.server.links.count == 2 } })
        await Self.settle(ring)
        let sentBefore = Self.total(ring) { $0.sent }
        for step in 0..<500 { ring[step % 3].gain.setValue(Float(step % 70) - 60) }
        await Self.settle(ring)
        // Concurrent changes at different instances may end anywhere, but the ring goes quiet and
        // bounded: at most four datagrams per change.
        #expect(Self.total(ring) { $0.sent } - sentBefore <= 4 * 500)
        let quietSent = Self.total(ring) { $0.sent }
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.total(ring) { $0.sent } == quietSent)
    }

    @Test func subscribersOfEveryInstanceHearALinkedChange() async throws {
        let first = try Instance()
        let second = try Instance()
        try first.server.link(to: second.url)
        #expect(await Self.eventually { second.server.links.count == 1 })
        let peer = try TestPeer(port: second.server.port)
        peer.send("/sys/subscribe", [.string(peer.url)])
        #expect(await peer.wait { $0.contains { $0.address == "/sys/update" && $0.arguments == [.int32(0)] } })
        peer.clear()
        first.gain.setValue(12)
        #expect(await peer.wait { $0.contains { $0.address == "/knob/gain" && $0.arguments == [.float32(1)] } })
        // And the far side's own changes come back over the link it created.
        second.gain.setValue(-60)
        #expect(await Self.eventually { first.hasGain(-60) })
    }

    @Test func eachInstanceAppliesItsOwnRootAndOneWayLinksStayOneWay() async throws {
        let far = try Instance(root: "/inst2")
        let near = try Instance(links: [LinkConfiguration(url: far.url, twoWay: false)], root: "/inst1")
        let peer = try TestPeer(port: far.server.port)
        peer.send("/sys/subscribe", [.string(peer.url)])
        #expect(await peer.wait { $0.contains { $0.address == "/sys/update" && $0.arguments == [.int32(0)] } })
        peer.clear()
        near.gain.setValue(12)
        #expect(await peer.wait { $0.contains { $0.address == "/inst2/knob/gain" && $0.arguments == [.float32(1)] } })
        // One-way: no announcement, so the far instance's changes stay there.
        #expect(far.server.links.isEmpty)
        far.gain.setValue(-60)
        try await Task.sleep(for: .milliseconds(100))
        #expect(near.hasGain(12))
    }

    @Test func chainOfTenWithTheDefaultTTL() async throws {
        var chain: [Instance] = []
        for _ in 0..<10 { chain.append(try Instance()) }
        for index in 0..<9 { try chain[index].server.link(to: chain[index + 1].url) }
        // An eleventh instance behind the tenth: ttl 8 from the first is spent by then.
        let beyond = try Instance()
        try chain[9].server.link(to: beyond.url, twoWay: false)
        #expect(await Self.eventually { (1..<9).allSatisfy { chain[$0].server.links.count == 2 } })
        await Self.settle(chain + [beyond])

        let sentBefore = Self.total(chain) { $0.sent }
        chain[0].gain.setValue(-33)
        #expect(await Self.eventually { chain.allSatisfy { $0.hasGain(-33) } })
        await Self.settle(chain + [beyond])
        #expect(chain.allSatisfy { $0.changeCount == 1 })
        // Nine hops, one datagram each; the tenth got ttl 0 and forwarded nothing.
        #expect(Self.total(chain) { $0.sent } - sentBefore == 9)
        #expect(beyond.changeCount == 0)
        #expect(beyond.received == 0)

        // The other way: the tenth's change reaches the first (and the eleventh, one hop away).
        chain[9].gain.setValue(6)
        #expect(await Self.eventually { chain.allSatisfy { $0.hasGain(6) } && beyond.hasGain(6) })
        await Self.settle(chain + [beyond])
        #expect(chain.allSatisfy { $0.changeCount == 2 })
    }

    /// A new instance on `port`, retried while the old one's sockets are still being closed
    /// (descriptors close in their sources' cancel handlers, a moment after `stop()`).
    static func restart(port: UInt16, links: [LinkConfiguration]) async throws -> Instance {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                return try Instance(port: port, links: links)
            } catch let error as OSCSystemError where ContinuousClock.now < deadline {
                _ = error
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test func restartingAMiddleInstance() async throws {
        let interval = 0.2
        let last = try Instance()
        var middle = try Instance(links: [LinkConfiguration(url: last.url, twoWay: true, announceInterval: interval)])
        let middlePort = middle.server.port
        let first = try Instance(links: [LinkConfiguration(url: middle.url, twoWay: true, announceInterval: interval)])
        let linked = await Self.eventually {
            middle.server.links.count == 2 && last.server.links.count == 1
        }
        #expect(linked)

        first.gain.setValue(-10)
        #expect(await Self.eventually { last.hasGain(-10) })
        last.gain.setValue(-20)
        #expect(await Self.eventually { first.hasGain(-20) })

        middle.server.stop()
        middle = try await Self.restart(
            port: middlePort, links: [LinkConfiguration(url: last.url, twoWay: true, announceInterval: interval)])
        // The first instance hears nothing from the new middle one and announces itself again.
        #expect(await Self.eventually { middle.server.links.count == 2 })
        first.gain.setValue(-30)
        #expect(await Self.eventually { last.hasGain(-30) && middle.hasGain(-30) })
        last.gain.setValue(-40)
        #expect(await Self.eventually { first.hasGain(-40) })
        #expect(first.hasGain(-40) && middle.hasGain(-40) && last.hasGain(-40))
    }

    @Test func sysLinkAndUnlinkMessages() async throws {
        let first = try Instance()
        let second = try Instance()
        let peer = try TestPeer(port: first.server.port)
        peer.send("/sys/link", [.string(second.url.description)])
        #expect(await Self.eventually { first.server.links.count == 1 })
        #expect(first.server.links.first?.twoWay == false)
        first.gain.setValue(3)
        #expect(await Self.eventually { second.hasGain(3) })
        // Mode 0 forwards only: the second instance was not asked to link back.
        try await Task.sleep(for: .milliseconds(100))
        #expect(second.server.links.isEmpty)

        peer.send("/sys/unlink", [.string(second.url.description)])
        #expect(await Self.eventually { first.server.links.isEmpty })
        first.gain.setValue(-3)
        try await Task.sleep(for: .milliseconds(100))
        #expect(second.hasGain(3))

        peer.send("/sys/link", [.string(second.url.description), .int32(1)])
        #expect(await Self.eventually { second.server.links.count == 1 && first.server.links.count == 1 })

        // Errors go to the sender (a fresh peer each, as /sys/error is sent once a second per peer).
        let refused = try TestPeer(port: first.server.port)
        refused.send("/sys/link", [.string("osc.tcp://127.0.0.1:9/")])
        let tcpError = OSCMessage(
            "/sys/error",
            [
                .string("/sys/link"),
                .string("invalid url 'osc.tcp://127.0.0.1:9/': links go over UDP (osc.udp://host:port/)"),
            ])
        #expect(await refused.wait { $0.contains(tcpError) })
        let garbled = try TestPeer(port: first.server.port)
        garbled.send("/sys/link", [.string("nonsense")])
        let garbledError = OSCMessage(
            "/sys/error", [.string("/sys/link"), .string("invalid url 'nonsense': no '://'")])
        #expect(await garbled.wait { $0.contains(garbledError) })
        let unknown = try TestPeer(port: first.server.port)
        unknown.send("/sys/unlink", [.string("osc.udp://127.0.0.1:9/")])
        #expect(await unknown.wait { $0.contains { $0.address == "/sys/error" } })
    }

    @Test func hostileLinkTrafficIsCountedNotAnswered() async throws {
        let instance = try Instance(name: "me")
        let peer = try TestPeer(port: instance.server.port)
        func bundle(_ elements: [OSCPacket]) -> OSCPacket { .bundle(OSCBundle(timeTag: .immediately, elements)) }
        let via = OSCPacket.message(OSCMessage("/sys/via", [.int32(8), .string("other")]))
        // Loops, bad headers, unknown addresses, wrong types, read-only values.
        let gain = OSCPacket.message(OSCMessage("/knob/gain", [.float32(1)]))
        peer.send(packet: bundle([.message(OSCMessage("/sys/via", [.int32(8), .string("me")])), gain]))
        peer.send(packet: bundle([.message(OSCMessage("/sys/via", [.float32(8)])), gain]))
        peer.send(packet: bundle([via, .message(OSCMessage("/no/such", [.float32(1)]))]))
        peer.send(packet: bundle([via, .message(OSCMessage("/knob/gain", [.string("loud")]))]))
        peer.send(packet: bundle([via, .message(OSCMessage("/knob/pan", [.float32(.nan)]))]))
        try await Task.sleep(for: .milliseconds(200))
        #expect(instance.changeCount == 0)
        #expect(peer.messages.isEmpty)
        let stats = instance.server.linkStatistics
        #expect(stats.loopsDropped == 1)
        #expect(stats.malformed == 1)
        #expect(stats.valuesRefused == 3)
        // No implicit subscription either: a real change sends the peer nothing.
        instance.gain.setValue(-1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(peer.messages.isEmpty)
        #expect(instance.statistic("subscribers") == 0)
        // More values in one bundle than the rate limit allows a second: dropped whole, counted.
        let limited = instance.statistic("rateLimited")
        let flood = (0..<2001).map { _ in OSCPacket.message(OSCMessage("/knob/pan", [.float32(0.9)])) }
        peer.send(packet: bundle([via] + flood))
        #expect(await Self.eventually { instance.statistic("rateLimited") == limited + 1 })
        #expect(instance.server.tree.parameter(forKeyPath: "knob.pan")!.value == 0)
        // A good link bundle from an unlinked sender is applied.
        peer.send(packet: bundle([via, gain]))
        #expect(await Self.eventually { instance.hasGain(12) })
    }
}
