import Controls
import Dispatch
import Locking
import Parameters
import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A control surface in the terminal: a `Store` of `ControlSurfaceFeature` bound to a tree,
/// the ``SurfaceController`` that turns input into actions, and the ``FrameRenderer`` that draws.
///
/// Everything runs on one serial queue. Nothing ticks: a frame is drawn when the store's state
/// changes, a key arrives or the terminal is resized, at most 60 a second (changes within a
/// frame's time are drawn together), and an idle surface makes no system call at all.
public final class TerminalSurface: Sendable {
    /// How a surface is made.
    public struct Options: Sendable {
        /// The theme.
        public var theme: Theme
        /// How colours are written.
        public var colorMode: ColorMode
        /// The fewest seconds between two frames (1/60 s).
        public var frameInterval: Duration

        /// Creates options.
        public init(theme: Theme, colorMode: ColorMode, frameInterval: Duration = .microseconds(16_667)) {
            self.theme = theme
            self.colorMode = colorMode
            self.frameInterval = frameInterval
        }
    }

    private let queue = DispatchQueue(label: "KnobLink.TerminalSurface")
    private let state: Locked<Running?>
    private let options: Options
    private let status: @Sendable () -> SurfaceStatus
    /// The tree shown: the one given at creation until ``replaceTree(_:)``.
    private let tree: Locked<ParameterTree>
    private let onQuit: @Sendable () -> Void
    /// The waveform row's source, if the surface has one.
    private let waveform: SurfaceWaveform?

    /// What exists while the surface runs; touched only on `queue`.
    private final class Running: @unchecked Sendable {
        var controller: SurfaceController
        var renderer: FrameRenderer
        let painter: SurfacePainter
        var decoder = InputDecoder()
        var sources: [any DispatchSourceProtocol] = []
        var observation: Cancellation?
        var framePending = false
        var lastFrame = DispatchTime(uptimeNanoseconds: 0)
        /// The waveform row's store, kept across tree reloads.
        let waveStore: Store<ScrubberFeature>?
        /// The transport last read, and when.
        var transport: SurfaceWaveform.Transport?
        var transportRead = DispatchTime(uptimeNanoseconds: 0)
        /// Whether a frame for the moving playhead is scheduled.
        var tickPending = false

        init(
            controller: SurfaceController, renderer: FrameRenderer, painter: SurfacePainter,
            waveStore: Store<ScrubberFeature>?
        ) {
            self.controller = controller
            self.renderer = renderer
            self.painter = painter
            self.waveStore = waveStore
        }
    }

    /// Creates a surface for `tree`.
    ///
    /// - Parameters:
    ///   - tree: the parameters to show and control.
    ///   - options: theme, colours, frame rate.
    ///   - waveform: the waveform row's source, or `nil` for no row.
    ///   - status: what the status line says; called for each frame.
    ///   - onQuit: called on the surface's queue when the user quits (`q`, Ctrl-C), after the
    ///     terminal is restored.
    public init(
        tree: ParameterTree, options: Options, waveform: SurfaceWaveform? = nil,
        status: @escaping @Sendable () -> SurfaceStatus, onQuit: @escaping @Sendable () -> Void
    ) {
        self.waveform = waveform
        self.tree = Locked(tree)
        self.options = options
        self.status = status
        self.onQuit = onQuit
        self.state = Locked(nil)
    }

    /// The store of the tree's controls, built from its sections.
    public static func makeStore(tree: ParameterTree) -> (Store<ControlSurfaceFeature>, [SurfaceSection]) {
        let sections = SurfaceSection.sections(of: tree)
        var knobs: [KnobFeature.State] = []
        var toggles: [ToggleFeature.State] = []
        for parameter in tree.allParameters {
            if parameter.unit == .boolean {
                toggles.append(ToggleFeature.State(parameter: parameter))
            } else {
                knobs.append(KnobFeature.State(parameter: parameter))
            }
        }
        let store = Store(
            initialState: ControlSurfaceFeature.State(knobs: knobs, toggles: toggles),
            reducer: ControlSurfaceFeature())
        return (store, sections)
    }

    /// Takes over the terminal and starts drawing.
    ///
    /// - Throws: ``RawTerminalError`` when standard input is not a terminal.
    public func start() throws(RawTerminalError) {
        try RawTerminal.enter()
        let waveStore = waveform.map { _ in Store(initialState: ScrubberFeature.State(), reducer: ScrubberFeature()) }
        let running = Running(
            controller: makeController(waveStore: waveStore), renderer: FrameRenderer(colorMode: options.colorMode),
            painter: SurfacePainter(theme: options.theme, colorMode: options.colorMode), waveStore: waveStore)
        state.withLock { $0 = running }
        // Observed before the first reading: a change between the two is then read again, not
        // missed until the next one (a remote server's first bars came just then).
        waveform?.observe { [weak self] in
            guard let self else { return }
            queue.async { [self] in
                guard let running = state.withLock({ $0 }) else { return }
                readTransport(running)
            }
        }
        queue.sync {
            observeStore(running)
            running.sources = [makeInputSource(running), makeResizeSource(running)]
            readTransport(running)
            drawFrame(running)
        }
    }

    /// Shows and controls `newTree` from now on (the server reloaded its tree): the controls are
    /// built again from it and focus starts at the first; the terminal stays as it is.
    public func replaceTree(_ newTree: ParameterTree) {
        tree.withLock { $0 = newTree }
        queue.async { [self] in
            guard let running = state.withLock({ $0 }) else { return }
            stopStore(running)
            running.controller = makeController(waveStore: running.waveStore)
            running.controller.isPlaying = running.transport?.isPlaying ?? false
            observeStore(running)
            drawFrame(running)
        }
    }

    /// A controller of a new store of the tree's controls, at the terminal's size, with the
    /// waveform row's gestures going to ``waveform``.
    private func makeController(waveStore: Store<ScrubberFeature>?) -> SurfaceController {
        let size = RawTerminal.size() ?? (80, 24)
        let (store, sections) = Self.makeStore(tree: tree.withLock { $0 })
        let controller = SurfaceController(
            store: store, sections: sections, waveform: waveStore, theme: options.theme, width: size.width,
            height: size.height)
        if let waveform {
            controller.onPlayPause = { waveform.setPlaying($0) }
            controller.onSeek = { waveform.seek($0) }
        }
        return controller
    }

    /// Reads the waveform's transport (and its bars, for a new source) after a change of
    /// course; on `queue`.
    private func readTransport(_ running: Running) {
        guard let waveform, let waveStore = running.waveStore else { return }
        let transport = waveform.transport()
        if transport.source != running.transport?.source {
            waveStore.send(.barsLoaded(waveform.bars(SurfaceWaveform.barCount)))
        }
        running.transport = transport
        running.transportRead = .now()
        running.controller.isPlaying = transport.isPlaying
        waveStore.send(.playbackProgressed(transport.progress))
        scheduleFrame()
    }

    /// While the playhead moves: its position now, and a frame when it reaches the next half
    /// column (never sooner than a frame's time); nothing is scheduled while it stands still.
    private func advancePlayhead(_ running: Running) {
        guard let transport = running.transport, transport.isPlaying, let waveStore = running.waveStore else {
            return
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - running.transportRead.uptimeNanoseconds) / 1e9
        let progress = transport.progress(after: elapsed)
        waveStore.send(.playbackProgressed(progress))
        guard progress < 1, !running.tickPending else { return }
        running.tickPending = true
        let columns = Double(max(1, Int(waveStore.state.width)))
        let step = max(transport.duration / (2 * columns), Self.seconds(options.frameInterval))
        queue.asyncAfter(deadline: .now() + step) { [weak self] in
            guard let self, let running = state.withLock({ $0 }) else { return }
            running.tickPending = false
            scheduleFrame()
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Starts the store's value observation and redraws on each of its changes; on `queue`.
    private func observeStore(_ running: Running) {
        let store = running.controller.store
        store.send(.task(options.theme))
        running.observation = store.observe { [weak self] _ in self?.scheduleFrame() }
    }

    /// Ends what ``observeStore(_:)`` started; on `queue`.
    private func stopStore(_ running: Running) {
        running.observation?.cancel()
        running.controller.store.send(.stopValueObservation)
        running.controller.store.cancelAllEffects()
    }

    /// Stops drawing and restores the terminal. Safe to call from any thread, more than once.
    public func stop() {
        queue.sync { stopOnQueue() }
    }

    private func stopOnQueue() {
        let running = state.withLock { running -> Running? in
            defer { running = nil }
            return running
        }
        guard let running else { return }
        running.sources.forEach { $0.cancel() }
        stopStore(running)
        RawTerminal.restore()
    }

    private func makeInputSource(_ running: Running) -> any DispatchSourceProtocol {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        source.setEventHandler { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard let self else { return }
            if count == 0 {
                // The terminal is gone (end of input): quit as `q` would.
                self.quit()
                return
            }
            guard count > 0 else { return }
            let events = running.decoder.decode(buffer[0..<count])
            for event in events {
                running.controller.handle(event)
            }
            if running.controller.quitRequested {
                self.quit()
                return
            }
            if !events.isEmpty { self.scheduleFrame() }
        }
        source.resume()
        return source
    }

    private func makeResizeSource(_ running: Running) -> any DispatchSourceProtocol {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
        source.setEventHandler { [weak self] in
            guard let self, let size = RawTerminal.size() else { return }
            running.controller.resize(width: size.width, height: size.height)
            self.scheduleFrame()
        }
        source.resume()
        return source
    }

    private func quit() {
        queue.async { [self] in
            stopOnQueue()
            onQuit()
        }
    }

    /// Draws a frame soon, for a change the store does not see (the status line's peer count).
    public func setNeedsDisplay() {
        scheduleFrame()
    }

    /// Asks for a frame: at once if the last one is a frame's time old, else when it is.
    private func scheduleFrame() {
        queue.async { [weak self] in
            guard let self, let running = self.state.withLock({ $0 }), !running.framePending else { return }
            running.framePending = true
            let interval =
                UInt64(self.options.frameInterval.components.attoseconds / 1_000_000_000)
                + UInt64(self.options.frameInterval.components.seconds) * 1_000_000_000
            let due = DispatchTime(uptimeNanoseconds: running.lastFrame.uptimeNanoseconds + interval)
            self.queue.asyncAfter(deadline: max(due, .now())) { [weak self] in
                guard let self, let running = self.state.withLock({ $0 }) else { return }
                running.framePending = false
                self.drawFrame(running)
            }
        }
    }

    private func drawFrame(_ running: Running) {
        running.lastFrame = .now()
        advancePlayhead(running)
        let grid = running.painter.paint(running.controller.scene(status: status()))
        if let bytes = running.renderer.render(grid) {
            RawTerminal.write(bytes)
        }
    }
}
