import Foundation
import OSCCore
import Parameters
import Testing

/// `knoblink serve --surface` in a real terminal emulator (tmux), with real UDP peers: keys and
/// mouse change the server's values, remote sets show on screen, gestures send `P/touch`,
/// resizing, colours, and the terminal restored however the surface ends (SURFACES.md §5).
@Suite(.serialized, .offThePool) struct TerminalSurfaceTests {
    /// A surface running in tmux, its server's port, and its files.
    final class Surface {
        let directory: URL
        let tmux: TmuxSession
        let port: UInt16
        var statePath: String { directory.appendingPathComponent("state.json").path }
        var logPath: String { directory.appendingPathComponent("serve.log").path }

        init(
            width: Int = 80, height: Int = 24, environment: String = "COLORTERM=truecolor", arguments: String = "",
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let log = directory.appendingPathComponent("serve.log").path
            let state = directory.appendingPathComponent("state.json").path
            // After the surface ends the shell reports its status and the terminal's line modes.
            let command = """
                env -u NO_COLOR -u COLORTERM TERM=xterm-256color \(environment) '\(Tool.knoblink.path)' serve --surface \
                --port 0 --bind 127.0.0.1 --feedback-port auto --summary 0 --log-file '\(log)' --state '\(state)' \
                \(arguments); echo "EXIT:$?"; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; \
                echo; sleep 60
                """
            tmux = try TmuxSession(command, width: width, height: height)
            var port: UInt16?
            let deadline = ContinuousClock.now + .seconds(10)
            while port == nil, ContinuousClock.now < deadline {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: {
                    $0.hasPrefix("Listening on UDP and TCP port ")
                }) {
                    port = UInt16(line.split(separator: " ").last ?? "")
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            self.port = try #require(port, "the server did not log its port", sourceLocation: sourceLocation)
            #expect(
                tmux.waitForScreen { $0.contains("Gain") }, "the surface did not draw", sourceLocation: sourceLocation)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// The knoblink process: the pane shell's child.
        func serverPID() throws -> Int32? {
            guard let shell = try tmux.panePID() else { return nil }
            let children = try Tool.run(Tool.system("pgrep"), ["-P", "\(shell)"]).stdout
            return children.split(separator: "\n").compactMap { Int32($0) }.first
        }

        /// Waits for the shell's report after the surface ended: its status and whether the
        /// terminal is back in line mode with echo.
        func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
            guard tmux.waitForScreen(until: { $0.contains("EXIT:") && $0.contains("icanon") }) else { return nil }
            return try? tmux.screen()
        }
    }

    /// A parameter's value in its units, asked over UDP.
    static func raw(_ peer: UDPTestPeer, _ address: String) -> Double? {
        peer.request(address + "/raw", reply: address + "/raw")?.number
    }

    static func waitFor(
        _ peer: UDPTestPeer, _ address: String, timeout: Duration = .seconds(5), _ condition: (Double) -> Bool
    ) -> Double? {
        let deadline = ContinuousClock.now + timeout
        var last: Double?
        repeat {
            last = raw(peer, address)
            if let last, condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        return last
    }

    @Test func keysChangeTheServersValues() throws {
        let surface = try Surface()
        let peer = try UDPTestPeer(server: surface.port)
        #expect(Self.raw(peer, "/knob/gain") == 0)
        try surface.tmux.type("L")
        let gain = Self.waitFor(peer, "/knob/gain") { abs($0 - 7.2) < 0.01 }
        #expect(gain.map { abs($0 - 7.2) < 0.01 } == true, "gain is \(String(describing: gain))")
        #expect(surface.tmux.waitForScreen { $0.contains("7.2 dB") })
        try surface.tmux.type("\t5")
        let frequency = Self.waitFor(peer, "/knob/frequency") { $0 > 11 }
        #expect(frequency.map { $0 > 11 && $0 < 20000 } == true)
        try surface.tmux.type("\u{1B}[Zd")
        #expect(Self.waitFor(peer, "/knob/gain") { $0 == 0 } == 0)
    }

    @Test func sysTreeReloadRedrawsTheNewTreeAndItsKnobsStayBound() throws {
        let scratch = try Scratch()
        let file = scratch.path("tree.json")
        try ParameterTree.makeDefault().jsonString().write(toFile: file, atomically: true, encoding: .utf8)
        let surface = try Surface(arguments: "--tree '\(file)'")
        let peer = try UDPTestPeer(server: surface.port)
        // The same tree with Gain named Volume: the surface must show and drive the new one.
        let renamed = ParameterTree.defaultSpecs.map { node -> ParameterNodeSpec in
            guard case .group(var group) = node, group.identifier == "knob" else { return node }
            group.children = group.children.map { child in
                guard case .parameter(var spec) = child, spec.identifier == "gain" else { return child }
                spec.displayName = "Volume"
                return .parameter(spec)
            }
            return .group(group)
        }
        try ParameterTree(children: renamed).jsonString().write(toFile: file, atomically: true, encoding: .utf8)
        #expect(peer.request("/sys/tree/reload", reply: "/sys/tree/reloaded") != nil)
        #expect(surface.tmux.waitForScreen { $0.contains("Volume") && !$0.contains("Gain") })
        try surface.tmux.type("L")
        let gain = Self.waitFor(peer, "/knob/gain") { abs($0 - 7.2) < 0.01 }
        #expect(gain.map { abs($0 - 7.2) < 0.01 } == true, "gain is \(String(describing: gain))")
    }

    @Test func aUDPSetShowsOnScreen() throws {
        let surface = try Surface()
        let peer = try UDPTestPeer(server: surface.port)
        peer.send("/knob/gain/str", [.string("-30 dB")])
        #expect(surface.tmux.waitForScreen { $0.contains("-30 dB") })
        peer.send("/toggle/retrigger/raw", 1)
        #expect(surface.tmux.waitForScreen { $0.contains("◉ On") })
    }

    @Test func aGestureSendsTouchToSubscribersAndHeldValuesWait() throws {
        let surface = try Surface()
        let listener = try UDPTestPeer(server: surface.port)
        listener.send("/sys/subscribe", [.string(listener.url), .string("/knob/gain"), .float32(0), .int32(17)])
        #expect(listener.waitForUpdateEnd())
        listener.clear()
        try surface.tmux.type("l")
        let touch = listener.waitForMessage("/knob/gain/touch")
        #expect(touch?.arguments == [.int32(1)])
        let release = listener.waitForMessage("/knob/gain/touch", after: 1)
        #expect(release?.arguments == [.int32(0)])
        // While the mouse holds the knob, a remote value waits; it shows on release.
        try surface.tmux.mouse(0, x: 8, y: 8)
        // The press has reached the surface (its touch is out) before the remote value comes:
        // on a loaded machine the remote value could otherwise arrive first.
        #expect(listener.waitForMessage("/knob/gain/touch", after: 2)?.arguments == [.int32(1)])
        let setter = try UDPTestPeer(server: surface.port)
        setter.send("/knob/gain/str", [.string("-40 dB")])
        #expect(Self.waitFor(setter, "/knob/gain") { $0 == -40 } == -40)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try !surface.tmux.screen().contains("-40 dB"))
        try surface.tmux.mouse(0, x: 8, y: 8, release: true)
        #expect(surface.tmux.waitForScreen { $0.contains("-40 dB") })
        #expect(Self.raw(setter, "/knob/gain") == -40)
    }

    @Test func aMouseDragMovesTheKnobSixteenPointsARow() throws {
        let surface = try Surface()
        let peer = try UDPTestPeer(server: surface.port)
        try surface.tmux.type("0")
        #expect(Self.waitFor(peer, "/knob/gain") { $0 == -60 } == -60)
        // Below the waveform row and a blank one, Gain's tile is rows 4…8, columns 2…13
        // (1-based); its centre column is 8.
        try surface.tmux.mouse(0, x: 8, y: 8)
        try surface.tmux.mouse(32, x: 8, y: 4)
        try surface.tmux.mouse(0, x: 8, y: 4, release: true)
        // 4 rows = 64 points of a 200-point sweep: 0.32 of -60…12 dB.
        let gain = Self.waitFor(peer, "/knob/gain") { abs($0 + 36.96) < 0.01 }
        #expect(gain.map { abs($0 + 36.96) < 0.01 } == true, "gain is \(String(describing: gain))")
        try surface.tmux.mouse(64, x: 8, y: 5)
        #expect(Self.waitFor(peer, "/knob/gain") { abs($0 + 36.24) < 0.01 }.map { abs($0 + 36.24) < 0.01 } == true)
        try surface.tmux.mouse(0, x: 5, y: 12)
        try surface.tmux.mouse(0, x: 5, y: 12, release: true)
        #expect(Self.waitFor(peer, "/toggle/retrigger") { $0 == 1 } == 1)
    }

    @Test func theValueEditorAppliesTypedText() throws {
        let surface = try Surface()
        let peer = try UDPTestPeer(server: surface.port)
        try surface.tmux.type("\r")
        #expect(surface.tmux.waitForScreen { $0.contains("Enter OK · Esc Cancel") })
        try surface.tmux.type("\u{7F}-12.5\r")
        #expect(Self.waitFor(peer, "/knob/gain") { $0 == -12.5 } == -12.5)
    }

    @Test func quittingRestoresTheTerminalAndWritesTheState() throws {
        let surface = try Surface()
        let peer = try UDPTestPeer(server: surface.port)
        try surface.tmux.type("9")
        #expect(Self.waitFor(peer, "/knob/gain") { $0 > 4 } != nil)
        try surface.tmux.type("q")
        let screen = try #require(surface.waitForExit())
        #expect(screen.contains("EXIT:0"))
        #expect(screen.contains("icanon echo") || screen.contains("echo icanon"))
        #expect(!screen.contains("Gain"), "the alternate screen was left")
        let state = try String(contentsOfFile: surface.statePath, encoding: .utf8)
        #expect(state.contains("gain"))
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalStopsTheServerAndRestoresTheTerminal(signal: Int32) throws {
        let surface = try Surface()
        let pid = try #require(try surface.serverPID())
        kill(pid, signal)
        let screen = try #require(surface.waitForExit())
        #expect(screen.contains("EXIT:0"))
        #expect(screen.contains("icanon"))
        #expect(!screen.contains("-icanon"))
        #expect(FileManager.default.fileExists(atPath: surface.statePath))
    }

    @Test func coloursAreTruecolorOr256OrNoneWithNoColor() throws {
        let truecolor = try Surface()
        let orange = "38;2;255;149;0"
        #expect(try truecolor.tmux.screen(colors: true).contains(orange))
        let palette = try Surface(environment: "")
        let colours = try palette.tmux.screen(colors: true)
        #expect(colours.contains("38;5;"))
        #expect(!colours.contains("38;2;"))
        let none = try Surface(environment: "NO_COLOR=1")
        let plain = try none.tmux.screen(colors: true)
        #expect(!plain.contains("38;5;") && !plain.contains("38;2;"))
        // The focus is reverse video.
        #expect(plain.contains("\u{1B}[7m") || plain.contains(";7m"))
    }

    @Test func resizingReLaysOutAndATinyTerminalSaysSo() throws {
        let surface = try Surface()
        try surface.tmux.resize(width: 12, height: 6)
        #expect(surface.tmux.waitForScreen { $0.contains("too small:") })
        try surface.tmux.resize(width: 30, height: 30)
        #expect(surface.tmux.waitForScreen { text in text.contains("Gain") && !text.contains("too small") })
        // 30 columns hold two tiles a row: Pan wraps below Gain.
        let lines = try surface.tmux.screen().split(separator: "\n", omittingEmptySubsequences: false)
        let gainRow = lines.firstIndex { $0.contains("Gain") }
        let panRow = lines.firstIndex { $0.contains("Pan") }
        #expect(gainRow != nil && panRow != nil && panRow! > gainRow!)
    }

    @Test func anIdleSurfaceUsesAlmostNoCPU() throws {
        let surface = try Surface()
        let pid = try #require(try surface.serverPID())
        func ticks() throws -> Int {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            let fields = stat.split(separator: ")").last!.split(separator: " ")
            return Int(fields[11])! + Int(fields[12])!
        }
        Thread.sleep(forTimeInterval: 1.5)
        let before = try ticks()
        Thread.sleep(forTimeInterval: 3)
        // Clock ticks are 10 ms: 3 s idle must cost under 1 % of a core (3 ticks).
        #expect(try ticks() - before < 3)
    }

    @Test func withoutATerminalSurfaceIsRefused() throws {
        let result = try Tool.knoblink("serve", "--surface", "--port", "0")
        #expect(result.status == 1)
        #expect(result.stderr.contains("--surface needs a terminal"))
    }

    @Test func aBadThemeIsAUsageErrorAndABadThemeFileAFailure() throws {
        let theme = try Tool.knoblink("serve", "--theme", "purple")
        #expect(theme.status == 64)
        #expect(theme.stderr.contains("expected light or dark"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString).json")
        try Data(#"{"dark": {"controlForegroundColor": "12345"}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let bad = try Tool.knoblink("serve", "--theme-file", file.path, "--port", "0")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("expected a colour as RRGGBB"))
    }

    @Test func aThemeFileColoursTheSurface() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString).json")
        try Data(#"{"light": {"controlForegroundColor": "102030"}, "dark": {"textColor": "A0B0C0"}}"#.utf8).write(
            to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let surface = try Surface(arguments: "--theme-file '\(file.path)'")
        #expect(try surface.tmux.screen(colors: true).contains("38;2;160;176;192"))
        let light = try Surface(arguments: "--theme light --theme-file '\(file.path)'")
        #expect(try light.tmux.screen(colors: true).contains("38;2;16;32;48"))
    }
}
