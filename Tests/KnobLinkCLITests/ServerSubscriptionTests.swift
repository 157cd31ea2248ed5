import Foundation
import OSCCore
import Testing

/// Subscriptions and the other system messages of PROTOCOL.md 3 and 9.7–9.12 as peers see them:
/// implicit and explicit subscriptions, forms, refresh, reset, caps, rate limit, root, timed
/// bundles, stats.
@Suite(.serialized, .offThePool) struct ServerSubscriptionTests {
    @Test func noImplicitSubscriptionWithNoImplicit() throws {
        let server = try ServerEchoRuleTests.server(["--no-implicit"])
        let surface = try UDPTestPeer(server: server.port)
        let other = try UDPTestPeer(server: server.port)
        surface.send("/knob/gain", 0.25)
        #expect(ServerEchoRuleTests.isClose(surface.request("/knob/gain")?.number, 0.25))
        surface.clear()
        other.send("/knob/pan", 0.125)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(surface.messages.isEmpty, "\(surface.messages)")
        #expect(server.terminate() == 0)
    }

    /// An explicit subscription replaces the peer's implicit one (one copy of each value), and
    /// `/sys/unsubscribe s url` ends both (9.7).
    @Test func explicitSubscriptionReplacesTheImplicitOne() throws {
        let server = try ServerEchoRuleTests.server()
        let surface = try UDPTestPeer(server: server.port)
        let other = try UDPTestPeer(server: server.port)
        surface.send("/knob/gain", 0.25)
        #expect(surface.waitForUpdateEnd())
        ServerEchoRuleTests.subscribe(surface, pattern: "", hz: 0, flags: 1)
        other.send("/knob/pan", 0.125)
        #expect(surface.waitForMessage("/knob/pan") != nil)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(surface.messages(to: "/knob/pan").count == 1, "\(surface.messages)")
        surface.send("/sys/unsubscribe", [.string(surface.url)])
        Thread.sleep(forTimeInterval: 0.2)
        surface.clear()
        other.send("/knob/pan", 0.875)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(surface.messages.isEmpty, "still subscribed: \(surface.messages)")
        #expect(server.terminate() == 0)
    }

    /// Subscribing again with the same url and pattern replaces the settings and sends the
    /// current values again (9.8).
    @Test func subscribingAgainReplacesTheSettings() throws {
        let server = try ServerEchoRuleTests.server()
        let subscriber = try UDPTestPeer(server: server.port)
        let setter = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(subscriber, pattern: "/knob/*", hz: 0, flags: 1)
        subscriber.send("/sys/subscribe", [.string(subscriber.url), .string("/knob/*"), .float32(0), .int32(4)])
        #expect(subscriber.waitForUpdateEnd())
        let resent = subscriber.messages.filter { !$0.address.hasPrefix("/sys/") }.map(\.address)
        #expect(Set(resent) == ["/knob/gain/raw", "/knob/frequency/raw", "/knob/pan/raw"], "\(resent)")
        subscriber.clear()
        setter.send("/knob/gain", 0.5)
        #expect(subscriber.waitForMessage("/knob/gain/raw")?.number == -24)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(subscriber.messages.map(\.address) == ["/knob/gain/raw"], "\(subscriber.messages)")
        #expect(server.terminate() == 0)
    }

    /// Flags 2 (display strings), 4 (raw) and 16 (touch state).
    @Test func subscriptionFormsAndTouchState() throws {
        let server = try ServerEchoRuleTests.server()
        let subscriber = try UDPTestPeer(server: server.port)
        let setter = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(subscriber, pattern: "/knob/gain", hz: 0, flags: 1 | 2 | 4 | 16)
        setter.send("/knob/gain", 0.75)
        #expect(subscriber.wait { $0.count >= 3 })
        #expect(subscriber.waitForMessage("/knob/gain/str")?.strings == ["-6 dB"])
        #expect(subscriber.waitForMessage("/knob/gain/raw")?.number == -6)
        #expect(subscriber.waitForMessage("/knob/gain")?.number == 0.75)
        setter.send("/knob/gain/touch", [.int32(1)])
        #expect(subscriber.waitForMessage("/knob/gain/touch")?.number == 1)
        setter.send("/knob/gain/touch", [.int32(0)])
        #expect(subscriber.waitForMessage("/knob/gain/touch", after: 1)?.number == 0)
        #expect(server.terminate() == 0)
    }

    @Test func refreshSendsEveryCurrentValue() throws {
        let server = try ServerEchoRuleTests.server()
        let peer = try UDPTestPeer(server: server.port)
        let elsewhere = try UDPTestPeer(server: server.port)
        peer.send("/sys/refresh")
        #expect(peer.waitForUpdateEnd())
        #expect(peer.messages.first == OSCMessage("/sys/update", [.int32(1)]))
        #expect(peer.messages.count == 17 + 2, "\(peer.messages)")
        peer.send("/sys/refresh", [.string(elsewhere.url)])
        #expect(elsewhere.waitForUpdateEnd())
        #expect(elsewhere.messages.count == 17 + 2)
        #expect(server.terminate() == 0)
    }

    @Test func resetGoesBackToTheDefaultExceptOnARelease() throws {
        let server = try ServerEchoRuleTests.server()
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/knob/gain", 0.25)
        peer.send("/knob/gain/reset", [.float32(0)])
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/gain")?.number, 0.25), "a release reset it")
        peer.send("/knob/gain/reset")
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/gain")?.number, 60.0 / 72))
        peer.send("/knob/gain", 0.25)
        peer.send("/knob/gain/reset", [.int32(1)])
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/gain")?.number, 60.0 / 72))
        #expect(server.terminate() == 0)
    }

    /// `--max-peers` caps subscribers, implicit ones included; the next one gets `/sys/error` (9.12).
    @Test func subscriberCapRefusesTheNextSubscription() throws {
        let server = try ServerEchoRuleTests.server(["--max-peers", "3"])
        let peers = try (0..<4).map { _ in try UDPTestPeer(server: server.port) }
        for peer in peers.prefix(3) { ServerEchoRuleTests.subscribe(peer, pattern: "", hz: 0, flags: 1) }
        let last = peers[3]
        last.send("/sys/subscribe", [.string(last.url)])
        let error = last.waitForMessage("/sys/error")
        #expect(error?.strings.first == "/sys/subscribe", "\(last.messages)")
        #expect(last.messages(to: "/sys/update").isEmpty)
        // Those already in go on.
        last.send("/knob/pan", 0.125)
        #expect(peers[0].waitForMessage("/knob/pan")?.number == 0.125)
        #expect(server.terminate() == 0)
    }

    /// 9.11: a peer's excess over `--rate-limit` is dropped, with errors in a burst of 10 and then
    /// at most one a second (9.2).
    @Test func rateLimitDropsTheExcess() throws {
        let server = try ServerEchoRuleTests.server(["--rate-limit", "100"])
        let watcher = try UDPTestPeer(server: server.port)
        let flooder = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(watcher, pattern: "/knob/gain", hz: 0, flags: 1)
        for index in 0..<1000 {
            flooder.send("/knob/gain", Float(index) / 1000)
        }
        Thread.sleep(forTimeInterval: 1)
        let applied = watcher.messages(to: "/knob/gain").count
        #expect(applied > 0 && applied <= 250, "\(applied) of 1000 applied under a limit of 100 a second")
        #expect(flooder.messages(to: "/sys/error").count <= 12)
        #expect(server.terminate() == 0)
    }

    /// `--root /inst1`: parameters move under the root, `/sys/…` stays at the top (9.9).
    @Test func rootPrefixesParameterAddresses() throws {
        let server = try ServerEchoRuleTests.server(["--root", "/inst1"])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/inst1/knob/gain", 0.25)
        #expect(ServerEchoRuleTests.isClose(peer.request("/inst1/knob/gain")?.number, 0.25))
        peer.send("/knob/gain")
        #expect(peer.waitForMessage("/sys/error")?.strings.first == "/knob/gain")
        #expect(peer.request("/sys/ping", reply: "/sys/pong")?.strings.first == server.name)
        #expect(server.terminate() == 0)
    }

    /// Bundles with a future time tag are applied at their time (9.12).
    @Test func futureBundleIsAppliedAtItsTime() throws {
        let server = try ServerEchoRuleTests.server()
        let watcher = try UDPTestPeer(server: server.port)
        let sender = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(watcher, pattern: "/knob/pan", hz: 0, flags: 1)
        let start = ContinuousClock.now
        let due = OSCTimeTag(secondsSince1970: Date().timeIntervalSince1970 + 0.6)
        sender.send(.bundle(OSCBundle(timeTag: due, [.message(OSCMessage("/knob/pan", [.float32(0.125)]))])))
        #expect(watcher.wait(timeout: .seconds(3)) { !$0.isEmpty })
        let arrival = watcher.received.first?.time
        #expect(watcher.messages.first == OSCMessage("/knob/pan", [.float32(0.125)]))
        if let arrival { #expect(arrival - start >= .milliseconds(450), "applied early") }
        #expect(server.terminate() == 0)
    }

    /// `/sys/stats s name i value …`, every drop counted (8).
    @Test func statsArePairsOfNameAndCount() throws {
        let server = try ServerEchoRuleTests.server()
        let peer = try UDPTestPeer(server: server.port)
        peer.sendRaw(Array("/x".utf8))
        let stats = try #require(peer.request("/sys/stats", reply: "/sys/stats"))
        #expect(!stats.arguments.isEmpty && stats.arguments.count.isMultiple(of: 2))
        for (position, argument) in stats.arguments.enumerated() {
            if position.isMultiple(of: 2) {
                #expect(argument.typeTag == UInt8(ascii: "s"), "\(stats)")
            } else {
                #expect(argument.typeTag == UInt8(ascii: "i") || argument.typeTag == UInt8(ascii: "h"), "\(stats)")
            }
        }
        #expect(server.terminate() == 0)
    }

    /// A subscriber whose port is closed is found dead (ICMP unreachable on several sends) and
    /// pruned, which frees its place under `--max-peers` (3).
    @Test func deadSubscriberIsPruned() throws {
        let server = try ServerEchoRuleTests.server(["--max-peers", "3"])
        let live = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(live)
        let deadPort = try Peers.freePort()
        live.send("/sys/subscribe", [.string("osc.udp://127.0.0.1:\(deadPort)/"), .string(""), .float32(0), .int32(1)])
        let setter = try UDPTestPeer(server: server.port)
        for index in 0..<20 {
            setter.send("/knob/pan", Float(index) / 20)
            Thread.sleep(forTimeInterval: 0.05)
        }
        // All three places were taken (the setter holds an implicit one); the dead one is gone now.
        let late = try UDPTestPeer(server: server.port)
        late.send("/sys/subscribe", [.string(late.url)])
        let freed = late.waitForUpdateEnd(timeout: .seconds(2))
        #expect(freed, "the dead subscriber still holds its place: \(late.messages)")
        #expect(late.messages(to: "/sys/error").isEmpty)
        let stats = try #require(late.request("/sys/stats", reply: "/sys/stats"))
        let deadPeers = stats.arguments.firstIndex(of: .string("deadPeers")).map { stats.arguments[$0 + 1] }
        #expect(deadPeers == .int32(1), "\(stats)")
        #expect(server.terminate() == 0)
    }

    /// Many peers at once: at most `--max-peers` implicit subscribers, the others told once.
    @Test func manyPeersAreCappedAndTold() throws {
        let server = try ServerEchoRuleTests.server(["--max-peers", "16"])
        let peers = try (0..<40).map { _ in try UDPTestPeer(server: server.port) }
        let before = try #require(server.residentKilobytes)
        for (index, peer) in peers.enumerated() {
            peer.send("/knob/pan", Float(index) / 40)
            Thread.sleep(forTimeInterval: 0.005)
        }
        Thread.sleep(forTimeInterval: 1)
        let subscribed = peers.count { $0.messages.contains(OSCMessage("/sys/update", [.int32(1)])) }
        let refused = peers.count { !$0.messages(to: "/sys/error").isEmpty }
        #expect(subscribed == 16, "\(subscribed) subscribed")
        #expect(refused == 24, "\(refused) told")
        #expect(peers.allSatisfy { $0.messages(to: "/sys/error").count <= 1 })
        let after = try #require(server.residentKilobytes)
        #expect(after - before < 16 * 1024)
        #expect(server.terminate() == 0)
    }

    /// A closed TCP connection ends its peer's subscription (3), freeing its place.
    @Test func closedTCPConnectionEndsItsSubscription() throws {
        let server = try ServerEchoRuleTests.server(["--max-peers", "1"])
        let tcp = try PythonPeer.tcp(port: server.port, mode: "1.0")
        tcp.send("/knob/gain")
        #expect(tcp.wait { $0.contains(OSCMessage("/sys/update", [.int32(0)])) }, "\(tcp.messages)")
        tcp.command("quit")
        #expect(tcp.process.waitForExit() == 0)
        let udp = try UDPTestPeer(server: server.port)
        udp.send("/sys/subscribe", [.string(udp.url)])
        #expect(udp.waitForUpdateEnd(), "the closed connection still holds its place: \(udp.messages)")
        #expect(server.terminate() == 0)
    }
}
