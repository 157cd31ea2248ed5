import Controls
import Dispatch
import Foundation
import Parameters
import Waveform

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
    private let state: LockedValue<Running?>
    private let options: Options
    private let status: @Sendable () -> SurfaceStatus
    /// The tree shown: the one given at creation until ``replaceTree(_:)``.
    private let tree: LockedValue<ParameterTree>
    private let onQuit: @Sendable () -> Void

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

        init(controller: SurfaceController, renderer: FrameRenderer, painter: SurfacePainter) {
            self.controller = controller
            self.renderer = renderer
            self.painter = painter
        }
    }

    /// Creates a surface for `tree`.
    ///
    /// - Parameters:
    ///   - tree: the parameters to show and control.
    ///   - options: theme, colours, frame rate.
    ///   - status: what the status line says; called for each frame.
    ///   - onQuit: called on the surface's queue when the user quits (`q`, Ctrl-C), after the
    ///     terminal is restored.
    public init(
        tree: ParameterTree, options: Options, status: @escaping @Sendable () -> SurfaceStatus,
        onQuit: @escaping @Sendable () -> Void
    ) {
        self.tree = LockedValue(tree)
        self.options = options
        self.status = status
        self.onQuit = onQuit
        self.state = LockedValue(nil)
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
        let running = Running(
            controller: makeController(), renderer: FrameRenderer(colorMode: options.colorMode),
            painter: SurfacePainter(theme: options.theme, colorMode: options.colorMode))
        state.withLock { $0 = running }
        queue.sync {
            observeStore(running)
            running.sources = [makeInputSource(running), makeResizeSource(running)]
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
            running.controller = makeController()
            observeStore(running)
            drawFrame(running)
        }
    }

    /// A controller of a new store of the tree's controls, at the terminal's size.
    private func makeController() -> SurfaceController {
        let size = RawTerminal.size() ?? (80, 24)
        let (store, sections) = Self.makeStore(tree: tree.withLock { $0 })
        return SurfaceController(
            store: store, sections: sections, theme: options.theme, width: size.width, height: size.height)
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
        let grid = running.painter.paint(running.controller.scene(status: status()))
        if let bytes = running.renderer.render(grid) {
            RawTerminal.write(bytes)
        }
    }
}
