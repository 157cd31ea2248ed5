import OSCTransport
import Testing

@testable import KnobLink

/// Announcements due at `now`, outside `#expect` (which cannot capture an `inout` value).
private func due(_ manager: inout LinkManager, _ now: Double) -> [LinkManager.Link] {
    manager.dueAnnouncements(now: now)
}

@Suite struct LinkManagerTests {
    static func address(_ port: UInt16) -> OSCSocketAddress { OSCSocketAddress(numericHost: "127.0.0.1", port: port)! }
    static func url(_ port: UInt16) -> OSCURL { OSCURL(host: "127.0.0.1", port: port) }

    /// A manager named `b` linked to ports 1 (a), 3 (c) and 4 (d).
    static func manager() -> LinkManager {
        var manager = LinkManager(name: "b")
        for port: UInt16 in [1, 3, 4] { manager.add(url: url(port), address: address(port), twoWay: true) }
        return manager
    }

    static func bundle(ttl: Int = 8, via: [String] = ["a"], _ values: [(String, Float)]) -> LinkBundle {
        LinkBundle(
            via: ViaHeader(ttl: ttl, instances: via), values: values.map { LinkValue(address: $0.0, value: $0.1) })
    }

    static let tree: [String: Double] = ["/knob/gain": 0.5, "/knob/pan": 0.25]

    @Test func appliesChangesAndForwardsEverywhereButBack() throws {
        var manager = Self.manager()
        let plan = try #require(
            manager.plan(for: Self.bundle([("/knob/gain", 0.75)]), from: Self.address(1), now: 0) { Self.tree[$0] })
        #expect(plan.apply == [LinkValue(address: "/knob/gain", value: 0.75)])
        #expect(plan.forward == ViaHeader(ttl: 7, instances: ["a", "b"]))
        // Split horizon: not back to port 1, where it came from.
        #expect(plan.targets == [Self.address(3), Self.address(4)])
        #expect(manager.statistics.bundlesReceived == 1)
    }

    @Test func convergedValuesAreNeitherAppliedNorForwarded() throws {
        var manager = Self.manager()
        let values: [(String, Float)] = [("/knob/gain", 0.5), ("/knob/pan", 0.250_000_5), ("/knob/pan", 0.25)]
        let plan = try #require(manager.plan(for: Self.bundle(values), from: Self.address(1), now: 0) { Self.tree[$0] })
        #expect(plan.apply.isEmpty)
        #expect(manager.statistics.valuesConverged == 2)
        // Just beyond the tolerance is a change.
        let moved = try #require(
            manager.plan(for: Self.bundle([("/knob/pan", 0.250_01)]), from: Self.address(1), now: 0) { Self.tree[$0] })
        #expect(moved.apply.count == 1)
    }

    @Test func lastValueForAnAddressWins() throws {
        var manager = Self.manager()
        let values: [(String, Float)] = [("/knob/gain", 0.1), ("/knob/pan", 0.9), ("/knob/gain", 0.2)]
        let plan = try #require(manager.plan(for: Self.bundle(values), from: Self.address(1), now: 0) { Self.tree[$0] })
        #expect(plan.apply.map(\.address) == ["/knob/pan", "/knob/gain"])
        #expect(plan.apply.last?.value == 0.2)
    }

    @Test func bundleNamingUsIsDropped() {
        var manager = Self.manager()
        let looped = Self.bundle(via: ["a", "b", "c"], [("/knob/gain", 0.9)])
        let plan = manager.plan(for: looped, from: Self.address(3), now: 0) { Self.tree[$0] }
        #expect(plan == nil)
        #expect(manager.statistics.loopsDropped == 1)
        #expect(manager.statistics.bundlesReceived == 0)
    }

    @Test func ttlZeroIsAppliedButNotForwarded() throws {
        var manager = Self.manager()
        let plan = try #require(
            manager.plan(for: Self.bundle(ttl: 0, [("/knob/gain", 0.9)]), from: Self.address(1), now: 0) {
                Self.tree[$0]
            })
        #expect(plan.apply.count == 1)
        #expect(plan.forward == nil)
        #expect(plan.targets.isEmpty)
    }

    @Test func fromAnUnlinkedSenderForwardsToEveryLink() throws {
        var manager = Self.manager()
        let plan = try #require(
            manager.plan(for: Self.bundle([("/knob/gain", 0.9)]), from: Self.address(9), now: 0) { Self.tree[$0] })
        #expect(plan.targets == [Self.address(1), Self.address(3), Self.address(4)])
    }

    @Test func unknownAndBadValuesAreCountedNotApplied() throws {
        var manager = Self.manager()
        var bundle = Self.bundle([("/no/such", 0.5), ("/knob/gain", .nan), ("/knob/pan", .infinity), ("/knob/gain", 1)])
        bundle.ignoredMessages = 2
        let plan = try #require(manager.plan(for: bundle, from: Self.address(1), now: 0) { Self.tree[$0] })
        #expect(plan.apply == [LinkValue(address: "/knob/gain", value: 1)])
        #expect(manager.statistics.valuesRefused == 4)
    }

    @Test func originatingChangesGoToEveryLinkWithTTL8() {
        let manager = Self.manager()
        let (via, targets) = manager.originating()
        #expect(via == ViaHeader(ttl: 8, instances: ["b"]))
        #expect(targets == [Self.address(1), Self.address(3), Self.address(4)])
    }

    @Test func addingTheSameAddressReplacesAndUnlinkRemoves() {
        var manager = Self.manager()
        let added = manager.add(url: Self.url(3), address: Self.address(3), twoWay: false)
        #expect(!added)
        #expect(manager.links.count == 3)
        #expect(manager.links[1].twoWay)
        manager.add(url: Self.url(4), address: Self.address(4), twoWay: true, announceInterval: 0.5)
        manager.add(url: Self.url(4), address: Self.address(4), twoWay: false, announceInterval: 30)
        #expect(manager.links[2].announceInterval == 0.5)
        let removed = manager.remove(address: Self.address(3))
        let removedAgain = manager.remove(address: Self.address(3))
        #expect(removed && !removedAgain)
        #expect(manager.links.map(\.address) == [Self.address(1), Self.address(4)])
    }

    @Test func twoWayLinksAnnounceUntilTheFarSideAnswers() throws {
        var manager = LinkManager(name: "a")
        manager.add(url: Self.url(2), address: Self.address(2), twoWay: true, announceInterval: 30)
        manager.add(url: Self.url(3), address: Self.address(3), twoWay: false, announceInterval: 30)
        #expect(due(&manager, 0).map(\.address) == [Self.address(2)])
        #expect(due(&manager, 10).isEmpty)
        #expect(manager.nextAnnouncement() == 30)
        #expect(due(&manager, 30).count == 1)
        // The far side answers with its changes: no more announcements while it is heard from.
        _ = manager.plan(for: Self.bundle(via: ["b"], [("/knob/gain", 0.1)]), from: Self.address(2), now: 40) {
            Self.tree[$0]
        }
        #expect(due(&manager, 60).isEmpty)
        // Silent for a whole interval (it may have restarted and forgotten us): announce again.
        #expect(due(&manager, 70).count == 1)
        #expect(manager.statistics.announcementsSent == 3)
    }

    @Test func refusedSendMakesTheLinkAnnounceAgain() {
        var manager = LinkManager(name: "a")
        manager.add(url: Self.url(2), address: Self.address(2), twoWay: true, announceInterval: 30)
        _ = manager.dueAnnouncements(now: 0)
        _ = manager.plan(for: Self.bundle(via: ["b"], []), from: Self.address(2), now: 1) { Self.tree[$0] }
        var unrefused = manager
        // Heard from at 1: at 30 it has not been silent for a whole interval yet.
        #expect(due(&unrefused, 30).isEmpty)
        manager.sendFailed(to: Self.address(2))
        #expect(due(&manager, 20).isEmpty)
        #expect(due(&manager, 30).count == 1)
        #expect(manager.statistics.sendFailures == 1)
    }

    @Test func ownURLAndAnnouncedAddresses() {
        let loopback = Self.address(9000)
        let remote = OSCSocketAddress(numericHost: "192.168.1.20", port: 9000)!
        #expect(
            LinkManager.ownURL(bindHost: nil, port: 8001, reaching: loopback).description == "osc.udp://127.0.0.1:8001/"
        )
        #expect(
            LinkManager.ownURL(bindHost: "10.0.0.5", port: 8001, reaching: remote).description
                == "osc.udp://10.0.0.5:8001/")
        #expect(
            LinkManager.ownURL(bindHost: "0.0.0.0", port: 8001, reaching: remote).description
                == "osc.udp://0.0.0.0:8001/")
        let source = OSCSocketAddress(numericHost: "192.168.1.30", port: 45000)!
        #expect(
            LinkManager.address(of: OSCURL(host: "0.0.0.0", port: 8001), announcedFrom: source)?.description
                == "192.168.1.30:8001")
        #expect(
            LinkManager.address(of: OSCURL(host: "localhost", port: 8001), announcedFrom: source)?.description
                == "127.0.0.1:8001")
        #expect(LinkManager.address(of: OSCURL(host: "example.org", port: 8001), announcedFrom: source) == nil)
    }
}

/// Pruning (PROTOCOL.md section 8): a peer's link goes after four failures in a row to reach its
/// far side; hearing from it clears the count; a configured link is never pruned.
@Suite struct LinkPruningTests {
    static func address(_ port: UInt16) -> OSCSocketAddress { OSCSocketAddress(numericHost: "127.0.0.1", port: port)! }
    static func url(_ port: UInt16) -> OSCURL { OSCURL(host: "127.0.0.1", port: port) }

    @Test func aPeersLinkIsPrunedAfterFourFailuresInARow() {
        var manager = LinkManager(name: "b")
        manager.add(url: Self.url(1), address: Self.address(1), twoWay: false, configured: false)
        manager.add(url: Self.url(2), address: Self.address(2), twoWay: false)
        for _ in 0..<3 {
            #expect(manager.recordFailure(to: Self.address(1)) == nil)
            #expect(manager.recordFailure(to: Self.address(2)) == nil)
        }
        // Heard from: the count starts again.
        manager.recordReached(Self.address(1))
        for _ in 0..<3 { #expect(manager.recordFailure(to: Self.address(1)) == nil) }
        #expect(manager.recordFailure(to: Self.address(1))?.url == Self.url(1))
        #expect(!manager.contains(Self.address(1)))
        // The configured one stays, however often it fails.
        for _ in 0..<10 { #expect(manager.recordFailure(to: Self.address(2)) == nil) }
        #expect(manager.contains(Self.address(2)))
        #expect(manager.statistics.pruned == 1)
    }

    @Test func aPeersAnnouncementDoesNotMakeAConfiguredLinkPrunable() {
        var manager = LinkManager(name: "b")
        manager.add(url: Self.url(1), address: Self.address(1), twoWay: true)
        manager.add(url: Self.url(1), address: Self.address(1), twoWay: false, configured: false)
        #expect(manager.links.first?.configured == true)
        for _ in 0..<8 { #expect(manager.recordFailure(to: Self.address(1)) == nil) }
    }
}
