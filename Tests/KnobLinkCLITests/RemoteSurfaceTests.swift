import Foundation
import OSCCore
import Testing

/// `knoblink surface osc.udp://…` in tmux against a real `knoblink serve`: the remote knobs are
/// drawn, a key changes the server's value, and another peer's set shows on screen (SURFACES.md §5).
@Suite(.serialized, .offThePool) struct RemoteSurfaceTests {
    static func surface(_ url: String) throws -> TmuxSession {
        let command = """
            env -u NO_COLOR TERM=xterm-256color COLORTERM=truecolor '\(Tool.knoblink.path)' surface '\(url)'; \
            echo "EXIT:$?"; sleep 60
            """
        return try TmuxSession(command, width: 80, height: 24)
    }

    @Test(arguments: ["udp", "tcp"])
    func drawsTheRemoteKnobsAndKeysChangeTheServer(transport: String) throws {
        let server = try ServeProcess(["--bind", "127.0.0.1", "--feedback-port", "auto"])
        let tmux = try Self.surface("osc.\(transport)://127.0.0.1:\(server.port)/")
        #expect(tmux.waitForScreen { $0.contains("Gain") && $0.contains("Retrigger") })
        let peer = try UDPTestPeer(server: server.port)
        try tmux.type("L")
        let gain = TerminalSurfaceTests.waitFor(peer, "/knob/gain") { abs($0 - 7.2) < 0.01 }
        #expect(gain.map { abs($0 - 7.2) < 0.01 } == true, "gain is \(String(describing: gain))")
        peer.send("/knob/gain/str", [.string("-30 dB")])
        #expect(tmux.waitForScreen { $0.contains("-30 dB") })
        try tmux.type("q")
        #expect(tmux.waitForScreen { $0.contains("EXIT:0") })
    }

    @Test func anUnreachableServerFailsWithAClearError() throws {
        // A UDP port that nothing answers on: this peer's own, which never replies.
        let silent = try UDPTestPeer(server: 9)
        let tmux = try Self.surface("osc.udp://127.0.0.1:\(silent.port)/")
        #expect(tmux.waitForScreen { $0.contains("no answer from") && $0.contains("EXIT:1") })
    }

    @Test func aWebSocketURLIsAUsageErrorThatSaysWhy() throws {
        let result = try Tool.run(Tool.knoblink, ["surface", "ws://127.0.0.1:8000/"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("an OSCQuery server is named by its HTTP port: http://host:port/"))
    }

    @Test func aKnobLinkServerOverOSCQuery() throws {
        let server = try ServeProcess(["--bind", "127.0.0.1", "--feedback-port", "auto"])
        let tmux = try Self.surface("http://127.0.0.1:\(server.port)/")
        // The waveform row comes from /wave/sub on the WebSocket: bars other than the floor.
        #expect(tmux.waitForScreen { $0.contains("Gain") && $0.contains("Retrigger") && $0.contains("█") })
        let peer = try UDPTestPeer(server: server.port)
        // The value is the normalised one of the namespace: 0.8333 + 0.01 (one step of ←→).
        try tmux.type("L")
        let gain = TerminalSurfaceTests.waitFor(peer, "/knob/gain") { abs($0 - 7.2) < 0.05 }
        #expect(gain.map { abs($0 - 7.2) < 0.05 } == true, "gain is \(String(describing: gain))")
        peer.send("/knob/gain", [.float32(0.25)])
        #expect(tmux.waitForScreen { $0.contains("0.25") })
        try tmux.type("q")
        #expect(tmux.waitForScreen { $0.contains("EXIT:0") })
    }

    /// python-oscquery's own HTTP server: HTTP/1.0 bodies to the connection's end, no WebSocket,
    /// so the surface sends over UDP to its OSC_PORT and reads its values by polling the namespace.
    @Test func aPythonOSCQueryServer() throws {
        let peer = try RunningProcess(Tool.system("python3"), [Self.servers, "python-oscquery"])
        defer { peer.stop() }
        let port = try Self.readyPort(peer)
        let tmux = try Self.surface("http://127.0.0.1:\(port)/")
        #expect(
            tmux.waitForScreen { $0.contains("Frequency") && $0.contains("On") && $0.contains("python-oscquery peer") })
        // Frequency (440, no RANGE: 0…1000) is focused; Tab, Tab is Level (3 in 0…127); → is
        // a step of 1 % of the range, sent rounded as the integer it is.
        try tmux.type("\t\t\u{1B}[C")
        #expect(peer.wait { $0.stdout.contains("recv /synth/level 4") }, "\(peer.stdout)")
        // The toggle: Shift-Tab back to it, Enter flips it; a T/F method gets F.
        try tmux.type("\u{1B}[Z\r")
        #expect(peer.wait { $0.stdout.contains("recv /synth/on False") }, "\(peer.stdout)")
        // A change made on the server shows by the next poll of the namespace.
        peer.write("set /synth/freq 250\n")
        #expect(tmux.waitForScreen { $0.contains("250") })
        #expect(try !tmux.screen().contains("Name"), "a string method is not mirrored")
        try tmux.type("q")
        #expect(tmux.waitForScreen { $0.contains("EXIT:0") })
    }

    /// An OSCQuery server written on the `websockets` library: one LISTEN per method, values as
    /// binary OSC both ways, an integer sent as `i`, a RANGE and UNIT taken, PATH_ADDED followed.
    @Test func aWebSocketOSCQueryServer() throws {
        let peer = try RunningProcess(OSCQueryClientTests.venvPython, [Self.servers, "websocket"])
        defer { peer.stop() }
        let port = try Self.readyPort(peer)
        let tmux = try Self.surface("http://127.0.0.1:\(port)/")
        #expect(tmux.waitForScreen { $0.contains("Cutoff") && $0.contains("Mute") && $0.contains("Steps") })
        #expect(peer.wait { $0.stdout.contains("listen /mixer/steps") && $0.stdout.contains("listen /mixer/mute") })
        // The focused cutoff shows in its unit.
        #expect(tmux.waitForScreen { $0.contains("1kHz") })
        try tmux.type("\t\t\u{1B}[F")
        #expect(peer.wait { $0.stdout.contains("recv /mixer/steps i 8") }, "\(peer.stdout)")
        peer.write("set /mixer/steps 5\n")
        #expect(tmux.waitForScreen { $0.contains("  5") })
        try tmux.type("\u{1B}[Z\r")
        #expect(peer.wait { $0.stdout.contains("recv /mixer/mute T") }, "\(peer.stdout)")
        peer.write("add /mixer/extra\n")
        #expect(tmux.waitForScreen { $0.contains("extra") })
        try tmux.type("q")
        #expect(tmux.waitForScreen { $0.contains("EXIT:0") })
    }

    static let servers = PythonPeer.directory.appendingPathComponent("oscquery_servers.py").path

    static func readyPort(_ peer: RunningProcess) throws -> UInt16 {
        try #require(peer.wait { $0.stdout.contains("ready ") }, "the peer did not start: \(peer.stderr)")
        let line = peer.stdout.split(separator: "\n").first { $0.hasPrefix("ready ") }
        return try #require(line.flatMap { UInt16($0.dropFirst(6)) })
    }

    @Test func withoutATerminalItIsRefusedBeforeConnecting() throws {
        let result = try Tool.run(Tool.knoblink, ["surface", "osc.udp://127.0.0.1:9/"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("surface needs a terminal"))
    }
}
