import Foundation
import Locking
import Testing
import Zeroconf

/// ``ZeroconfAdvertiser`` against a real avahi-daemon (in the network namespace `klmdns`, see
/// `scripts/avahi-netns.sh`), checked with `avahi-browse`.
///
/// Serialized: the tests share the one daemon, and some stop it.
@Suite(
    .serialized, .avahiDaemon,
    .enabled("needs root, network namespaces and avahi-daemon (scripts/avahi-netns.sh)") {
        await AvahiDaemon.isAvailable()
    })
struct AvahiAdvertisingTests {
    /// A name no other test (or earlier run) uses.
    private static func uniqueName(_ base: String) -> String {
        "\(base) \(UInt32.random(in: 0...UInt32.max))"
    }

    private static func advertiser(_ name: String, osc: UInt16 = 9000, oscQuery: UInt16 = 8000, log: LogRecorder)
        -> ZeroconfAdvertiser
    {
        ZeroconfAdvertiser(name: name, services: [.osc(port: osc), .oscQuery(port: oscQuery)], log: log.log)
    }

    /// Starts the daemon unless it runs, then an advertiser of `name`, and waits until its
    /// services are established.
    private static func established(
        _ name: String, osc: UInt16, oscQuery: UInt16, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (ZeroconfAdvertiser, LogRecorder) {
        try #require(await AvahiDaemon.start(), sourceLocation: sourceLocation)
        let log = LogRecorder()
        let advertiser = advertiser(name, osc: osc, oscQuery: oscQuery, log: log)
        advertiser.start()
        #expect(
            await eventually { advertiser.establishedName == name }, "log: \(log.messages)",
            sourceLocation: sourceLocation)
        return (advertiser, log)
    }

    /// Starts an advertiser of `name`, which `holder` has, and checks that it moves to `name #2`
    /// and says so once.
    private static func startedAsNumberTwo(
        _ name: String, osc: UInt16, oscQuery: UInt16, takenBy holder: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ZeroconfAdvertiser {
        let log = LogRecorder()
        let advertiser = advertiser(name, osc: osc, oscQuery: oscQuery, log: log)
        advertiser.start()
        #expect(
            await eventually { advertiser.establishedName == "\(name) #2" }, "log: \(log.messages)",
            sourceLocation: sourceLocation)
        let moved = log.messages(containing: "the name '\(name)' is taken by \(holder); advertising as '\(name) #2'")
        #expect(moved.count == 1, "\(log.messages)", sourceLocation: sourceLocation)
        return advertiser
    }

    private static func services(named name: String, _ type: String) async -> [BrowsedService] {
        await BrowsedService.browse(type).filter { $0.name == name }
    }

    @Test func publishesBothServicesUnderOneNameAndWithdrawsThem() async throws {
        try #require(await AvahiDaemon.start())
        let name = Self.uniqueName("Studio; A")
        let log = LogRecorder()
        let established = Locked<[String]>([])
        let advertiser = ZeroconfAdvertiser(
            name: name, services: [.osc(port: 9000), .oscQuery(port: 8000, txt: ["txtvers": "1", "x": "y"])],
            log: log.log, onEstablished: { name in established.withLock { $0.append(name) } })
        advertiser.start()
        #expect(advertiser.isRunning)
        #expect(await eventually { advertiser.establishedName == name }, "log: \(log.messages)")
        // Avahi's thread sets the name, then calls `onEstablished`: the call may come a moment later.
        #expect(await eventually { established.withLock { $0 } == [name] }, "\(established.withLock { $0 })")

        var osc: [BrowsedService] = []
        var oscQuery: [BrowsedService] = []
        #expect(
            await eventually {
                // avahi-browse -t takes about a second for its "all for now": both at once.
                async let oscFound = Self.services(named: name, "_osc._udp")
                async let oscQueryFound = Self.services(named: name, "_oscjson._tcp")
                (osc, oscQuery) = await (oscFound, oscQueryFound)
                return !osc.isEmpty && !oscQuery.isEmpty
            })
        #expect(osc.map(\.port) == [9000], "\(osc)")
        #expect(osc.first?.txt == ["txtvers=1"])
        #expect(osc.first?.host == "klmdns.local")
        #expect(osc.first?.address == "127.0.0.1")
        #expect(oscQuery.map(\.port) == [8000], "\(oscQuery)")
        #expect(oscQuery.first?.txt == ["txtvers=1", "x=y"])
        #expect(log.messages(containing: "zeroconf: advertising '\(name)'").count == 1, "\(log.messages)")

        advertiser.stop()
        #expect(!advertiser.isRunning)
        #expect(advertiser.establishedName == nil)
        #expect(
            await eventually(timeout: .seconds(3)) {
                let left =
                    await BrowsedService.browse("_osc._udp") + BrowsedService.browse("_oscjson._tcp")
                return !left.contains { $0.name == name }
            }, "the services are still there after stop()")
        advertiser.stop()  // a second stop does nothing
    }

    @Test func aTakenNameMovesTheSecondAdvertiserToNameNumberTwo() async throws {
        let name = Self.uniqueName("Twin")
        let (first, _) = try await Self.established(name, osc: 9001, oscQuery: 8001)
        let second = await Self.startedAsNumberTwo(
            name, osc: 9002, oscQuery: 8002, takenBy: "another service on this host")
        #expect(first.establishedName == name)

        var ports: [String: [UInt16]] = [:]
        #expect(
            await eventually {
                let all = await BrowsedService.browse("_oscjson._tcp") + BrowsedService.browse("_osc._udp")
                ports = Dictionary(grouping: all.filter { $0.name.hasPrefix(name) }, by: \.name)
                    .mapValues { $0.map(\.port).sorted() }
                return ports.count == 2 && ports.values.allSatisfy { $0.count == 2 }
            })
        #expect(ports == [name: [8001, 9001], "\(name) #2": [8002, 9002]])
        first.stop()
        second.stop()
    }

    @Test(.pythonZeroconf)
    func aNameTakenByAnotherHostMovesToNameNumberTwo() async throws {
        try #require(await AvahiDaemon.start())
        let name = Self.uniqueName("Remote")
        // python zeroconf answers mDNS itself: to the daemon it is another host with the name.
        let register = AvahiDaemon.scripts.appendingPathComponent("zeroconf-register.py").path
        async let other = Command.run(
            "/usr/sbin/ip",
            ["netns", "exec", "klmdns", AvahiDaemon.python, register, name, "_osc._udp.local.", "9010", "6"],
            timeout: .seconds(15))
        #expect(await eventually { await Self.services(named: name, "_osc._udp").map(\.port) == [9010] })

        let advertiser = await Self.startedAsNumberTwo(
            name, osc: 9011, oscQuery: 8011, takenBy: "another host on the network")
        #expect(await eventually { await Self.services(named: "\(name) #2", "_oscjson._tcp").map(\.port) == [8011] })
        advertiser.stop()
        let result = await other
        #expect(result.status == 0, "zeroconf-register.py: \(result.stderr)")
    }

    /// Another responder claims the daemon's host name (`klmdns.local` at another address): the
    /// daemon moves to `klmdns-2.local`, the client passes through its collision and registering
    /// states, and the advertiser publishes its services again, under the same service name,
    /// on the new host.
    @Test(.pythonZeroconf)
    func aHostNameTakenByAnotherHostIsAdvertisedAgainOnTheNewHostName() async throws {
        let name = Self.uniqueName("Hostless")
        let (advertiser, log) = try await Self.established(name, osc: 9012, oscQuery: 8012)
        #expect(await eventually { await Self.services(named: name, "_osc._udp").map(\.host) == ["klmdns.local"] })

        let register = AvahiDaemon.scripts.appendingPathComponent("zeroconf-register.py").path
        async let usurper = Command.run(
            "/usr/sbin/ip",
            [
                "netns", "exec", "klmdns", AvahiDaemon.python, register, Self.uniqueName("Usurper"),
                "_osc._udp.local.", "9013", "8", "klmdns.local.", "127.0.0.2",
            ],
            timeout: .seconds(20))
        var hosts: [String] = []
        #expect(
            await eventually(timeout: .seconds(15)) {
                hosts = await Self.services(named: name, "_oscjson._tcp").map(\.host)
                return hosts == ["klmdns-2.local"]
            }, "hosts: \(hosts); log: \(log.messages)")
        #expect(advertiser.establishedName == name)
        #expect(log.messages(containing: "zeroconf: advertising '\(name)'").count == 2, "\(log.messages)")
        #expect(log.messages(containing: "is taken").isEmpty, "\(log.messages)")
        let result = await usurper
        #expect(result.status == 0, "zeroconf-register.py: \(result.stderr)")
        advertiser.stop()
        // The daemon keeps its new host name until it restarts: the tests after this one start
        // a fresh daemon, named klmdns again.
        await AvahiDaemon.kill()
    }

    @Test func aNameTooLongIsPublishedCutToSixtyThreeBytes() async throws {
        try #require(await AvahiDaemon.start())
        let stem = "Ünïcödé \(UInt16.random(in: 0...UInt16.max)) "
        let long = stem + String(repeating: "é", count: 40)
        let log = LogRecorder()
        let advertiser = Self.advertiser(long, log: log)
        advertiser.start()
        defer { advertiser.stop() }
        #expect(await eventually { advertiser.establishedName != nil }, "log: \(log.messages)")
        let published = try #require(advertiser.establishedName)
        #expect(published.utf8.count <= 63)
        #expect(published.utf8.count >= 62)
        #expect(long.hasPrefix(published))
        #expect(await eventually { await !Self.services(named: published, "_osc._udp").isEmpty })
    }

    @Test func servicesComeBackWhenTheDaemonRestarts() async throws {
        let name = Self.uniqueName("Phoenix")
        let (advertiser, log) = try await Self.established(name, osc: 9003, oscQuery: 8003)
        defer { advertiser.stop() }

        await AvahiDaemon.kill()
        #expect(await eventually { advertiser.establishedName == nil })
        #expect(
            await eventually { !log.messages(containing: "the Avahi daemon went away").isEmpty }, "\(log.messages)")
        #expect(advertiser.isRunning)

        try #require(await AvahiDaemon.start())
        #expect(await eventually { advertiser.establishedName == name }, "log: \(log.messages)")
        #expect(await eventually { await Self.services(named: name, "_oscjson._tcp").map(\.port) == [8003] })
        #expect(log.messages(containing: "zeroconf: advertising '\(name)'").count == 2, "\(log.messages)")
    }

    @Test func withoutADaemonStartLogsOneLineAndReturns() async throws {
        await AvahiDaemon.kill()
        let log = LogRecorder()
        let advertiser = Self.advertiser(Self.uniqueName("Nobody"), log: log)
        let began = ContinuousClock.now
        advertiser.start()
        #expect(ContinuousClock.now - began < .seconds(2))
        #expect(!advertiser.isRunning)
        try await Task.sleep(for: .milliseconds(300))
        #expect(log.messages.count == 1, "\(log.messages)")
        #expect(log.messages.first?.contains("no Avahi daemon runs") == true, "\(log.messages)")
        #expect(log.messages.first?.contains("--no-zeroconf") == true)
        #expect(advertiser.establishedName == nil)
        advertiser.stop()

        // Back for the tests that follow; start() then reaches it.
        try #require(await AvahiDaemon.start())
        advertiser.start()
        #expect(await eventually { advertiser.establishedName != nil }, "log: \(log.messages)")
        advertiser.stop()
    }

    /// What `scripts/zeroconf-browse.py` prints for the service it found.
    private struct PythonBrowsed: Decodable {
        var name: String
        var port: UInt16
        var addresses: [String]
        var txt: [String]
    }

    @Test(.pythonZeroconf)
    func pythonZeroconfFindsTheOSCQueryService() async throws {
        let name = Self.uniqueName("Query é")
        let (advertiser, _) = try await Self.established(name, osc: 9005, oscQuery: 8005)
        defer { advertiser.stop() }

        // python zeroconf speaks mDNS itself: it runs in the namespace, next to the daemon.
        let browser = AvahiDaemon.scripts.appendingPathComponent("zeroconf-browse.py").path
        for (type, port) in [("_oscjson._tcp.local.", 8005), ("_osc._udp.local.", 9005)] {
            let result = await Command.run(
                "/usr/sbin/ip", ["netns", "exec", "klmdns", AvahiDaemon.python, browser, name, type, "5"],
                timeout: .seconds(10))
            try #require(result.status == 0, "zeroconf-browse.py: \(result.stderr)")
            let found = try JSONDecoder().decode(PythonBrowsed.self, from: Data(result.stdout.utf8))
            #expect(found.name == "\(name).\(type)")
            #expect(found.port == UInt16(port))
            #expect(found.addresses.contains("127.0.0.1"), "\(found.addresses)")
            #expect(found.txt == ["txtvers=1"])
        }
    }

    @Test func releasingTheAdvertiserWithdrawsItsServices() async throws {
        let name = Self.uniqueName("Transient")
        do {
            let (advertiser, _) = try await Self.established(name, osc: 9004, oscQuery: 8004)
            #expect(advertiser.isRunning)
            #expect(await eventually { await !Self.services(named: name, "_osc._udp").isEmpty })
        }
        #expect(
            await eventually(timeout: .seconds(3)) { await Self.services(named: name, "_osc._udp").isEmpty },
            "the advertiser's deinit left its services behind")
    }
}
