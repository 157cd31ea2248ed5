import Foundation
import Testing

/// `knoblink serve` found on the network by a controller (issue 11): python-oscquery's
/// OSCQueryBrowser discovers it through Zeroconf, then reads its HOST_INFO and a node over HTTP.
/// The server and the browser run in the network namespace `klmdns` beside a real Avahi daemon
/// (Tests/ZeroconfTests/scripts/avahi-netns.sh), so no mDNS leaves the machine.
@Suite(.serialized, .offThePool) struct ZeroconfDiscoveryTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let avahiScript = packageRoot.appendingPathComponent("Tests/ZeroconfTests/scripts/avahi-netns.sh").path
    static let script = PythonPeer.directory.appendingPathComponent("oscquery_discovery.py").path
    static let state = FileManager.default.temporaryDirectory
        .appendingPathComponent("knoblink-discovery-\(ProcessInfo.processInfo.processIdentifier)").path

    /// The script's answer to "start": 0 when the daemon runs, 77 when this machine cannot run it.
    static let daemon: Tool.Result? = try? Tool.run(Tool.system("bash"), [avahiScript, "start", state])

    @Test(.enabled("needs root, network namespaces and avahi-daemon") { daemon?.status != 77 })
    func oscQueryBrowserFindsTheServerAndReadsIt() throws {
        defer { _ = try? Tool.run(Tool.system("bash"), [Self.avahiScript, "stop", Self.state]) }
        try #require(Self.daemon?.status == 0, "avahi-netns.sh start: \(String(describing: Self.daemon))")
        let name = "Discovery \(UInt32.random(in: 0...UInt32.max))"
        let server = try ChildProcess(
            Tool.system("ip"),
            [
                "netns", "exec", "klmdns", Tool.knoblink.path, "serve", "--port", "0", "--name", name, "--log-level",
                "info",
            ])
        defer { server.stop() }
        #expect(
            server.wait(timeout: .seconds(20)) {
                $0.stderr.contains("zeroconf: advertising '\(name)'") || !$0.isRunning
            })
        let line = server.stderr.split(separator: "\n").first { $0.hasPrefix("Listening on UDP and TCP port ") }
        let port = try #require(line.flatMap { Int($0.split(separator: " ").last ?? "") }, "\(server.stderr)")

        let found = try Tool.run(
            Tool.system("ip"), ["netns", "exec", "klmdns", Tool.system("python3").path, Self.script, name, "15"])
        try #require(found.status == 0, "\(found.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
        #expect(json["name"] as? String == name)
        #expect(json["port"] as? Int == port)
        #expect(json["oscPort"] as? Int == port)
        #expect(json["path"] as? String == "/knob/gain")

        // SIGTERM withdraws the services: Avahi forgets the name (it knew it before).
        let browse = { try Tool.run(Tool.system("avahi-browse"), ["-t", "-k", "_oscjson._tcp"]).stdout }
        #expect(try browse().contains(name))
        #expect(server.terminate() == 0)
        // A goodbye packet gives the records a last second in caches (RFC 6762 section 10.1).
        var after = try browse()
        let deadline = ContinuousClock.now + .seconds(5)
        while after.contains(name), ContinuousClock.now < deadline { after = try browse() }
        #expect(!after.contains(name), "\(after)")
    }
}
