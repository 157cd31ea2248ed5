import Foundation
import OSCCore
import Testing

/// The waveform row of `knoblink serve --surface` (SURFACES.md §2–3, §5), bound to the server's
/// own wave stream: Space plays and pauses, a click seeks, a peer's seek moves the drawn
/// playhead, and a UDP visualiser sees what the row did.
@Suite(.serialized, .offThePool) struct TerminalWaveformTests {
    typealias Surface = TerminalSurfaceTests.Surface

    /// The playhead's column (0-based) in the waveform row, the screen's first line: the half
    /// block `▌` that the painter draws there; `nil` at 0 or 1, where there is none.
    static func playheadColumn(_ screen: String) -> Int? {
        guard let row = screen.split(separator: "\n", omittingEmptySubsequences: false).first,
            let index = row.firstIndex(of: "▌")
        else { return nil }
        return row.distance(from: row.startIndex, to: index)
    }

    static func playheadColumn(of surface: Surface) -> Int? {
        (try? surface.tmux.screen()).flatMap(playheadColumn)
    }

    /// The server's transport and playhead, asked over UDP.
    static func playing(_ peer: UDPTestPeer) -> Double? { peer.request("/wave/playing")?.number }
    static func progress(_ peer: UDPTestPeer) -> Double? { peer.request("/wave/progress")?.number }

    @Test func theRowIsDrawnAboveTheControls() throws {
        let surface = try Surface()
        let lines = try surface.tmux.screen().split(separator: "\n", omittingEmptySubsequences: false)
        let bars = Set("▁▂▃▄▅▆▇█")
        #expect(lines.first.map { $0.filter { bars.contains($0) }.count } == 78, "\(lines.first ?? "")")
        #expect(lines.firstIndex { $0.contains("Gain") }.map { $0 > 1 } == true)
    }

    @Test func spaceOnTheFocusedRowPlaysAndPausesTheServersStream() throws {
        let surface = try Surface()
        let peer = try UDPTestPeer(server: surface.port)
        #expect(Self.playing(peer) == 0)
        // Shift-Tab from Gain, the first control, focuses the waveform; Space plays.
        try surface.tmux.type("\u{1B}[Z ")
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.playing(peer) != 1, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(Self.playing(peer) == 1)
        // The drawn playhead moves while the server plays (the demo signal is 24 s long: 78
        // columns in 24 s, about three a second).
        #expect(surface.tmux.waitForScreen { Self.playheadColumn($0) ?? 0 >= 5 })
        try surface.tmux.type(" ")
        let paused = ContinuousClock.now + .seconds(5)
        while Self.playing(peer) != 0, ContinuousClock.now < paused { Thread.sleep(forTimeInterval: 0.05) }
        #expect(Self.playing(peer) == 0)
        // Paused, the playhead stays where the server stopped it.
        let stopped = try #require(Self.progress(peer))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.progress(peer) == stopped)
        let column = Self.playheadColumn(of: surface)
        #expect(
            column.map { abs(Double($0) - (1 + stopped * 78)) <= 1.5 } == true,
            "column \(String(describing: column)) at \(stopped)")
    }

    @Test func aClickOnTheRowSeeksAndAUDPVisualiserHearsIt() throws {
        let surface = try Surface()
        let visualiser = try UDPTestPeer(server: surface.port)
        visualiser.send("/wave/sub", [.string(visualiser.url), .int32(8), .float32(60)])
        #expect(visualiser.waitForMessage("/wave/progress") != nil)
        visualiser.clear()
        // Column 41 (1-based) of 80 is cell 39 of the row's 78, whose middle is progress 0.5.
        try surface.tmux.mouse(0, x: 41, y: 1)
        try surface.tmux.mouse(0, x: 41, y: 1, release: true)
        let heard = visualiser.waitForMessage("/wave/progress")
        #expect(heard?.number.map { abs($0 - 0.5) < 0.02 } == true, "\(String(describing: heard))")
        #expect(Self.progress(visualiser).map { abs($0 - 0.5) < 0.02 } == true)
        #expect(surface.tmux.waitForScreen { Self.playheadColumn($0) == 40 })
    }

    @Test func aPeersSeekMovesTheDrawnPlayhead() throws {
        let surface = try Surface()
        let peer = try UDPTestPeer(server: surface.port)
        peer.send("/wave/progress", 0.75)
        // 0.75 of 78 cells, after the row's left margin: column 59.5.
        #expect(surface.tmux.waitForScreen { Self.playheadColumn($0).map { abs($0 - 59) <= 1 } == true })
        peer.send("/wave/progress", 0.25)
        #expect(surface.tmux.waitForScreen { Self.playheadColumn($0).map { abs($0 - 20) <= 1 } == true })
    }
}

/// The waveform row of `knoblink surface URL`, fed by the mirror's `/wave/sub` subscription.
@Suite(.serialized, .offThePool) struct RemoteWaveformTests {
    @Test func theRemoteRowFollowsTheServerAndPlaysIt() throws {
        let server = try ServeProcess(["--bind", "127.0.0.1", "--feedback-port", "auto"])
        let tmux = try RemoteSurfaceTests.surface("osc.udp://127.0.0.1:\(server.port)/")
        #expect(tmux.waitForScreen { $0.contains("Gain") })
        let bars = Set("▁▂▃▄▅▆▇█")
        #expect(
            tmux.waitForScreen { screen in
                (screen.split(separator: "\n").first?.filter { bars.contains($0) }.count ?? 0) >= 70
            })
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/wave/progress", 0.75)
        #expect(tmux.waitForScreen { TerminalWaveformTests.playheadColumn($0).map { abs($0 - 59) <= 1 } == true })
        try tmux.type("\u{1B}[Z ")
        let deadline = ContinuousClock.now + .seconds(5)
        while TerminalWaveformTests.playing(peer) != 1, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(TerminalWaveformTests.playing(peer) == 1)
        // The playhead moves on screen between the server's updates.
        #expect(tmux.waitForScreen { TerminalWaveformTests.playheadColumn($0) ?? 0 >= 62 })
        try tmux.type("q")
        #expect(tmux.waitForScreen { $0.contains("EXIT:0") })
    }
}
