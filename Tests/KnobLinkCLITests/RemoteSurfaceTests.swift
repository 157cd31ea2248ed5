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

    @Test func anOSCQueryURLIsAUsageErrorThatSaysWhy() throws {
        let result = try Tool.run(Tool.knoblink, ["surface", "http://127.0.0.1:8000/"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("OSCQuery servers are not mirrored yet: use osc.udp:// or osc.tcp://"))
    }

    @Test func withoutATerminalItIsRefusedBeforeConnecting() throws {
        let result = try Tool.run(Tool.knoblink, ["surface", "osc.udp://127.0.0.1:9/"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("surface needs a terminal"))
    }
}
