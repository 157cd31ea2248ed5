import Foundation
import OSCCore
import Testing

/// Instances chained with `--link` (PROTOCOL.md 6, 9.10): every change reaches every instance
/// exactly once and the links go quiet. Each instance has a subscriber without a rate limit, and
/// the tests count every datagram those subscribers receive.
@Suite(.serialized, .offThePool) struct ServerChainingTests {
    /// An instance with its subscriber (all parameters, no rate limit) and a peer that sets values.
    struct Node {
        let server: ServeProcess
        let subscriber: UDPTestPeer
        let setter: UDPTestPeer

        init(_ arguments: [String] = [], port: UInt16 = 0) throws {
            server = try ServeProcess(["--feedback-port", "auto"] + arguments, port: port)
            subscriber = try UDPTestPeer(server: server.port)
            setter = try UDPTestPeer(server: server.port)
            ServerEchoRuleTests.subscribe(subscriber)
            // A query makes the setter an implicit subscriber now, so that the current values it
            // gets on joining (9.7) do not count as its own change coming back later.
            let root = arguments.firstIndex(of: "--root").map { arguments[$0 + 1] } ?? ""
            setter.send(root + "/knob/gain")
            #expect(setter.waitForUpdateEnd(), "the setter did not become a subscriber")
            setter.clear()
        }

        /// Waits until this instance's subscriber has seen `value` for `address`.
        func sees(_ address: String, _ value: Float, timeout: Duration = .seconds(10)) -> Bool {
            subscriber.wait(timeout: timeout) { $0.contains { Self.matches($0, address, value) } }
        }

        /// A value goes through the parameter's own units at each instance: compare with a tolerance.
        static func matches(_ message: OSCMessage, _ address: String, _ value: Float) -> Bool {
            message.address == address && ServerEchoRuleTests.isClose(message.number, Double(value))
        }
    }

    /// Waits until the links are up: a two-way link is asked for by its far side at start, so a
    /// change made at once may not travel yet. Sets `/mod/release` at each of `origins` until
    /// every node sees it (bounded), then forgets what the subscribers got.
    static func settle(_ nodes: [Node], from origins: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
        var attempt = 0
        for origin in origins {
            var reached = false
            for _ in 0..<40 where !reached {
                attempt += 1
                let value = Float(attempt) / 1000
                nodes[origin].setter.send("/mod/release", value)
                reached = nodes.allSatisfy { $0.sees("/mod/release", value, timeout: .milliseconds(250)) }
            }
            #expect(reached, "the links from instance \(origin) did not come up", sourceLocation: sourceLocation)
        }
        Thread.sleep(forTimeInterval: 0.5)
        for node in nodes { node.subscriber.clear() }
    }

    /// Sets `address` at `origin` and checks that every node's subscriber gets it in exactly one
    /// datagram, and that nothing else arrives for a second after (the links are quiet).
    static func expectExactlyOnce(
        _ nodes: [Node], from origin: Int, _ address: String, _ value: Float,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for node in nodes { node.subscriber.clear() }
        nodes[origin].setter.clear()
        nodes[origin].setter.send(address, value)
        for (index, node) in nodes.enumerated() {
            #expect(
                node.sees(address, value), "instance \(index) did not get \(address) \(value) from \(origin)",
                sourceLocation: sourceLocation)
        }
        Thread.sleep(forTimeInterval: 1)
        for (index, node) in nodes.enumerated() {
            #expect(
                node.subscriber.messages.count == 1
                    && node.subscriber.messages.allSatisfy { Node.matches($0, address, value) }
                    && node.subscriber.datagramCount == 1,
                "instance \(index), change from \(origin): \(node.subscriber.datagramCount) datagrams, \(node.subscriber.messages)",
                sourceLocation: sourceLocation)
        }
        #expect(
            !nodes[origin].setter.messages.contains { $0.address == address }, "the originator got its change back",
            sourceLocation: sourceLocation)
    }

    @Test func ringOfThreeDeliversEachChangeOnceAndGoesQuiet() throws {
        let a = try Node()
        let b = try Node(["--link", a.server.url])
        let c = try Node(["--link", b.server.url, "--link", a.server.url])
        let ring = [a, b, c]
        Self.settle(ring, from: [0, 1, 2])
        for origin in 0..<3 {
            Self.expectExactlyOnce(ring, from: origin, "/knob/gain", Float(origin + 1) / 8)
            Self.expectExactlyOnce(ring, from: origin, "/amp/sustain", Float(origin + 1) / 16)
        }
        for node in ring { #expect(node.server.terminate() == 0) }
    }

    /// Conflicting changes at two instances at once: the ring settles, whatever the final values.
    @Test func ringGoesQuietAfterConflictingChanges() throws {
        let a = try Node()
        let b = try Node(["--link", a.server.url])
        let c = try Node(["--link", b.server.url, "--link", a.server.url])
        Self.settle([a, b, c], from: [0, 1, 2])
        Self.expectExactlyOnce([a, b, c], from: 0, "/knob/pan", 0.125)
        for round in 0..<20 {
            a.setter.send("/knob/pan", Float(round) / 40)
            c.setter.send("/knob/pan", 0.5 + Float(round) / 40)
        }
        Thread.sleep(forTimeInterval: 2)
        for node in [a, b, c] { node.subscriber.clear() }
        Thread.sleep(forTimeInterval: 1)
        for (index, node) in [a, b, c].enumerated() {
            #expect(node.subscriber.datagramCount == 0, "instance \(index) still busy: \(node.subscriber.messages)")
            #expect(node.server.isRunning)
        }
        for node in [a, b, c] { #expect(node.server.terminate() == 0) }
    }

    /// Ten instances in a line with the default ttl 8: a change at an end reaches the far end,
    /// nine hops away, which receives it with ttl 0 and does not forward it (9.10).
    @Test func chainOfTenWithTheDefaultTTL() throws {
        var chain: [Node] = [try Node()]
        for _ in 1..<10 {
            chain.append(try Node(["--link", chain.last!.server.url]))
        }
        Self.settle(chain, from: [0, 9])
        Self.expectExactlyOnce(chain, from: 0, "/knob/gain", 0.25)
        Self.expectExactlyOnce(chain, from: 9, "/knob/gain", 0.5)
        Self.expectExactlyOnce(chain, from: 4, "/knob/frequency", 0.75)
        for node in chain { #expect(node.server.terminate() == 0) }
    }

    /// Eleven in a line: the far end, ten hops away, is past the default ttl and never gets a change.
    @Test func ttlEndsTheTravelAfterNineHops() throws {
        var chain: [Node] = [try Node()]
        for _ in 1..<11 {
            chain.append(try Node(["--link", chain.last!.server.url]))
        }
        Self.settle(Array(chain[0..<10]), from: [0])
        Self.settle(Array(chain[1...10]), from: [9])
        for node in chain { node.subscriber.clear() }
        chain[0].setter.send("/knob/pan", 0.375)
        for (index, node) in chain.enumerated().dropFirst().dropLast() {
            #expect(node.sees("/knob/pan", 0.375), "instance \(index) did not get the change")
        }
        Thread.sleep(forTimeInterval: 1)
        #expect(chain[10].subscriber.messages.isEmpty, "ten hops away: \(chain[10].subscriber.messages)")
        for node in chain { #expect(node.server.terminate() == 0) }
    }

    /// `/sys/via` (6): a bundle that already names the instance is dropped; one that arrives with
    /// ttl 0 is applied and not forwarded.
    @Test func viaHopListAndTTLFromAPeer() throws {
        let a = try Node()
        let b = try Node(["--link", a.server.url])
        Self.settle([a, b], from: [0, 1])
        func via(_ ttl: Int32, _ names: [String], _ value: Float) -> OSCPacket {
            let header = OSCMessage("/sys/via", [.int32(ttl)] + names.map { .string($0) })
            return .bundle(
                OSCBundle(
                    timeTag: .immediately, [.message(header), .message(OSCMessage("/knob/gain", [.float32(value)]))]))
        }
        let peer = try UDPTestPeer(server: a.server.port)
        peer.send(via(8, ["elsewhere", a.server.name], 0.125))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!a.sees("/knob/gain", 0.125, timeout: .zero), "a bundle naming the instance was applied")
        peer.send(via(0, ["elsewhere"], 0.25))
        #expect(a.sees("/knob/gain", 0.25), "a bundle with ttl 0 was not applied")
        Thread.sleep(forTimeInterval: 1)
        #expect(!b.sees("/knob/gain", 0.25, timeout: .zero), "a bundle that came with ttl 0 was forwarded")
        peer.send(via(3, ["elsewhere"], 0.5))
        #expect(b.sees("/knob/gain", 0.5), "a bundle with ttl 3 was not forwarded")
        for node in [a, b] { #expect(node.server.terminate() == 0) }
    }

    @Test func killingAndRestartingTheMiddleInstance() throws {
        let a = try Node()
        var b = try Node(["--link", a.server.url])
        let c = try Node(["--link", b.server.url])
        Self.settle([a, b, c], from: [0, 2])
        Self.expectExactlyOnce([a, b, c], from: 0, "/knob/gain", 0.25)
        let port = b.server.port
        b.server.kill9()
        a.setter.send("/knob/gain", 0.375)
        #expect(a.sees("/knob/gain", 0.375))
        Thread.sleep(forTimeInterval: 1)
        #expect(!c.subscriber.messages.contains { Node.matches($0, "/knob/gain", 0.375) })
        // Sends to the dead instance's port (ICMP unreachable) leave both neighbours working.
        #expect(a.setter.request("/sys/ping", reply: "/sys/pong") != nil)
        #expect(c.setter.request("/sys/ping", reply: "/sys/pong") != nil)
        b = try Node(["--link", a.server.url, "--link", c.server.url], port: port)
        Self.settle([a, b, c], from: [0, 2])
        Self.expectExactlyOnce([a, b, c], from: 0, "/knob/gain", 0.5)
        Self.expectExactlyOnce([a, b, c], from: 2, "/knob/gain", 0.625)
        Self.expectExactlyOnce([a, b, c], from: 1, "/knob/pan", 0.875)
        for node in [a, b, c] { #expect(node.server.terminate() == 0) }
    }

    /// `--link-one-way` forwards only: the far side's changes do not come back (6, 9.10).
    @Test func oneWayLinkForwardsOnly() throws {
        let far = try Node()
        let near = try Node(["--link-one-way", far.server.url])
        Self.settle([near, far], from: [0])
        Self.expectExactlyOnce([near, far], from: 0, "/knob/gain", 0.25)
        far.setter.send("/knob/pan", 0.125)
        #expect(far.sees("/knob/pan", 0.125))
        Thread.sleep(forTimeInterval: 1)
        #expect(!near.sees("/knob/pan", 0.125, timeout: .zero), "a one-way link carried a change back")
        for node in [near, far] { #expect(node.server.terminate() == 0) }
    }

    /// `/sys/link s url i 1` at run time links both ways; `/sys/unlink s url` ends it (3, 6).
    @Test func linkAndUnlinkAtRunTime() throws {
        let a = try Node()
        let b = try Node()
        a.setter.send("/sys/link", [.string(b.server.url), .int32(1)])
        Self.settle([a, b], from: [0, 1])
        Self.expectExactlyOnce([a, b], from: 1, "/knob/gain", 0.25)
        a.setter.send("/sys/unlink", [.string(b.server.url)])
        Thread.sleep(forTimeInterval: 0.3)
        a.setter.send("/knob/gain", 0.5)
        #expect(a.sees("/knob/gain", 0.5))
        Thread.sleep(forTimeInterval: 1)
        #expect(!b.sees("/knob/gain", 0.5, timeout: .zero), "still linked after /sys/unlink")
        for node in [a, b] { #expect(node.server.terminate() == 0) }
    }

    /// `--root`: link traffic carries addresses without the root and each instance applies its
    /// own (9.9).
    @Test func linkedInstancesWithDifferentRoots() throws {
        let a = try Node(["--root", "/left"])
        let b = try Node(["--root", "/right", "--link", a.server.url])
        a.setter.send("/left/knob/pan", 0.25)
        #expect(b.subscriber.wait(timeout: .seconds(10)) { $0.contains { Node.matches($0, "/right/knob/pan", 0.25) } })
        b.setter.send("/right/knob/gain", 0.125)
        #expect(a.subscriber.wait(timeout: .seconds(10)) { $0.contains { Node.matches($0, "/left/knob/gain", 0.125) } })
        for node in [a, b] { #expect(node.server.terminate() == 0) }
    }
}
