import Controls
import Dispatch
import Locking
import OSCTransport
import Parameters
import RemoteTree
import TerminalUI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `knoblink surface URL`: the terminal surface of `serve --surface`, on a mirror of a remote
/// server's tree (``RemoteParameterTree``) instead of a local server's.
struct SurfaceCommand: RunnableCommand {
    static let name = "surface"

    static let spec = CommandSpec(
        name: name,
        abstract: "Control a remote server's knobs in this terminal.",
        discussion: """
            With osc.udp:// or osc.tcp://, reads a KnobLink server's tree (/sys/groups,
            /sys/list and each parameter's /info), subscribes to its values and draws its
            knobs and toggles as 'knoblink serve --surface' does. With http://, reads any
            OSCQuery server: its namespace (GET /) is the tree, and values come and go on its
            WebSocket (LISTEN), or over UDP to its OSC port when it has none. A change made here
            is sent to the server; a change from the server is shown and never sent back. When
            the server stops answering, the status line says so, and the tree is read again
            when it is back (or restarted on the same port). Over UDP the surface listens on a
            port of its own, named in its requests; over TCP everything goes on the connection.
            q or Ctrl-C quits.
            """,
        arguments: [
            ArgumentSpec(
                name: "url",
                help: "The server as osc.udp://host:port/, osc.tcp://host:port/ or http://host:port/ (OSCQuery).")
        ],
        options: [
            .option(
                "timeout", value: "seconds", help: "How long each step of reading the tree may take. (default: 3)"),
            .option("log-file", value: "file", help: "Append what happens to the connection to this file."),
            .option("theme", value: "scheme", help: "The surface's colours: light or dark.", default: "dark"),
            .option(
                "theme-file", value: "file",
                help: "A JSON file of the six colours as RRGGBB, for light and dark (Docs/TERMINAL.md)."),
        ]
    )

    var url: RemoteServer
    var timeout: Double
    var surface: SurfaceOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        var positionals = PositionalReader(arguments.positionals)
        let text = try positionals.next("<url>")
        try positionals.finish()
        if text.lowercased().hasPrefix("http://") {
            do {
                url = try RemoteServer.parse(text)
            } catch {
                throw .invalidValue(text, for: "<url>", reason: Self.reason(error))
            }
        } else if text.lowercased().hasPrefix("ws://") || text.lowercased().hasPrefix("https://") {
            throw .invalidValue(
                text, for: "<url>", reason: "an OSCQuery server is named by its HTTP port: http://host:port/")
        } else {
            let osc = try OSCURL.parse(text, argument: "<url>")
            guard osc.port != 0 else { throw .invalidValue(text, for: "<url>", reason: "the port must be 1 to 65535") }
            url = .osc(osc)
        }
        timeout = 3
        if let value = arguments.value("timeout") {
            guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw .invalidValue(value, for: "--timeout <seconds>", reason: "expected a positive number of seconds")
            }
            timeout = seconds
        }
        surface = try SurfaceOptions(parsing: arguments)
        surface.enabled = true
    }

    func run() throws {
        guard RawTerminal.isInteractive else {
            throw CommandFailure(
                "surface needs a terminal: standard input and standard output must both be a tty")
        }
        let theme = try surface.loadTheme()
        let log = try surface.logDestination()
        let screen = Screen(theme: theme)
        var options = RemoteTreeOptions()
        options.timeout = .milliseconds(Int(timeout * 1000))
        let remote = try Self.connect(url, options: options) { event in
            switch event {
            case .stateChanged(let state):
                if let log { KnobLinkTool.write("\(url): \(state)\n", to: log) }
                screen.redraw()
            case .treeReplaced(let tree):
                if let log { KnobLinkTool.write("\(url): the server's tree changed; redrawn\n", to: log) }
                CommandQueue.queue.async { screen.replace(with: tree) }
            case .waveChanged:
                screen.waveChanged()
            }
        }
        screen.remote = remote
        try screen.show(remote.tree)
        let signals = SignalWatch.watch([SIGINT, SIGTERM, SIGHUP], queue: CommandQueue.queue) { _ in
            screen.stop()
            exit(0)
        }
        withExtendedLifetime((signals, remote)) { CommandQueue.parkMainThread() }
    }

    private static func reason(_ error: RemoteTreeError) -> String {
        guard case .invalidURL(_, let reason) = error else { return error.description }
        return reason
    }

    /// Connects from the main thread (``MainThreadWait``).
    private static func connect(
        _ url: RemoteServer, options: RemoteTreeOptions, onEvent: @escaping @Sendable (RemoteTreeEvent) -> Void
    ) throws(CommandFailure) -> RemoteParameterTree {
        let outcome = MainThreadWait.result { () async throws(RemoteTreeError) -> RemoteParameterTree in
            try await RemoteParameterTree.connect(to: url, options: options, onEvent: onEvent)
        }
        switch outcome {
        case .success(let remote): return remote
        case .failure(let error): throw CommandFailure(error.description)
        }
    }

    /// The terminal surface of the mirror's current tree, made anew when the server comes back
    /// with another tree.
    final class Screen: Sendable {
        private let theme: Theme
        private let state = Locked<
            (surface: TerminalSurface?, remote: RemoteParameterTree?, waveObserver: (@Sendable () -> Void)?)
        >((nil, nil, nil))

        init(theme: Theme) {
            self.theme = theme
        }

        var remote: RemoteParameterTree? {
            get { state.withLock { $0.remote } }
            set { state.withLock { $0.remote = newValue } }
        }

        /// Draws `tree`, in place of the surface drawn so far.
        func show(_ tree: ParameterTree) throws(CommandFailure) {
            let colorMode = ColorMode(environment: ProcessInfo.processInfo.environment)
            let surface = TerminalSurface(
                tree: tree, options: TerminalSurface.Options(theme: theme, colorMode: colorMode),
                waveform: remote?.offersWave == false ? nil : waveform(),
                status: { [weak self] in
                    guard let remote = self?.remote else { return SurfaceStatus(name: "") }
                    return SurfaceStatus(name: remote.serverName, isConnected: remote.state != .lost)
                },
                onQuit: { exit(0) })
            state.withLock { $0.surface }?.stop()
            do {
                try surface.start()
            } catch {
                throw CommandFailure("surface: \(error)")
            }
            state.withLock { $0.surface = surface }
        }

        /// Shows the new tree: the running surface rebuilds its controls in place (the terminal
        /// stays as it is); without one, a new surface, or an exit with the reason when the
        /// terminal cannot be taken.
        func replace(with tree: ParameterTree) {
            if let surface = state.withLock({ $0.surface }) { return surface.replaceTree(tree) }
            do throws(CommandFailure) {
                try show(tree)
            } catch {
                KnobLinkTool.write("Error: \(error.message)\n", to: .standardError)
                exit(1)
            }
        }

        /// The waveform row bound to the mirror's `/wave/sub` subscription: the server's bars
        /// and playhead, its play, pause and seeks sent to the server.
        private func waveform() -> SurfaceWaveform {
            let wave: @Sendable () -> RemoteWave? = { [weak self] in self?.remote?.wave }
            return SurfaceWaveform(
                bars: { _ in wave()?.bars ?? [] },
                transport: {
                    let state = wave() ?? RemoteWave()
                    return SurfaceWaveform.Transport(
                        progress: state.progress, isPlaying: state.isPlaying, duration: state.duration,
                        source: state.source)
                },
                setPlaying: { [weak self] in self?.remote?.setWavePlaying($0) },
                seek: { [weak self] in self?.remote?.seekWave(to: $0) },
                observe: { [weak self] changed in self?.state.withLock { $0.waveObserver = changed } })
        }

        /// The mirror heard the server's waveform stream change.
        func waveChanged() {
            state.withLock { $0.waveObserver }?()
        }

        func redraw() {
            state.withLock { $0.surface }?.setNeedsDisplay()
        }

        func stop() {
            state.withLock { $0.surface }?.stop()
        }
    }
}
