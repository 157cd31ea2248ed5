import Controls
import Parameters
import Waveform

/// The terminal surface's logic between the terminal and the stores: it turns keys and mouse
/// events into actions for the focused control (SURFACES.md §2, §3, §5), keeps the focus, the
/// scroll position and the drag in progress, and paints scenes.
///
/// It is not thread-safe: its owner (``TerminalSurface``) calls it on one serial queue.
public final class SurfaceController {
    /// The controls' store.
    public let store: Store<ControlSurfaceFeature>
    /// The waveform's store, if the surface has a waveform.
    public let waveform: Store<ScrubberFeature>?
    /// The sections to lay out.
    public private(set) var sections: [SurfaceSection]
    /// The layout for the terminal's current size.
    public private(set) var layout: SurfaceLayout
    /// The focused control's index in the layout, or `nil` when the waveform has the focus.
    public private(set) var focus: Int?
    /// Whether the key list is shown.
    public private(set) var showsHelp = false
    /// The rows scrolled away.
    public private(set) var scroll = 0
    /// Whether the user asked to quit.
    public private(set) var quitRequested = false
    /// The theme given to the knobs' editors.
    public let theme: Theme
    /// Called for Space on the waveform: play (`true`) or pause.
    public var onPlayPause: ((Bool) -> Void)?
    /// Called when the waveform asks to seek, 0…1.
    public var onSeek: ((Double) -> Void)?
    /// Whether the waveform is playing, for Space.
    public var isPlaying = false

    private var drag: Drag?
    private var waveformDrag: (startColumn: Int, moved: Bool)?

    /// The points of a knob drag: the tracker, and the tile's centre column.
    private struct Drag {
        var id: UInt64
        var tracker: KnobDragTracker
        var centreColumn: Int
    }

    /// The knob's diameter in points for the drag math: a sweep of the whole range takes 200
    /// points, 12.5 rows at 16 points a row.
    public static let dragDiameter = 100.0
    /// Points of drag per row (SURFACES.md §5).
    public static let pointsPerRow = 16.0
    /// Points of sideways distance per column (a cell is about half as wide as it is high).
    public static let pointsPerColumn = 8.0

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - store: the controls.
    ///   - sections: how to group them.
    ///   - waveform: the waveform's store, or `nil`.
    ///   - theme: the theme for the editor.
    ///   - width: the terminal's columns.
    ///   - height: the terminal's rows.
    public init(
        store: Store<ControlSurfaceFeature>, sections: [SurfaceSection], waveform: Store<ScrubberFeature>? = nil,
        theme: Theme, width: Int, height: Int
    ) {
        self.store = store
        self.sections = sections
        self.waveform = waveform
        self.theme = theme
        layout = SurfaceLayout(sections: sections, width: width, height: height, hasWaveform: waveform != nil)
        focus = layout.controls.isEmpty ? nil : 0
        waveform?.send(.laidOut(width: Double(max(0, width - 2))))
    }

    /// Lays out again for a new terminal size.
    public func resize(width: Int, height: Int) {
        layout = SurfaceLayout(sections: sections, width: width, height: height, hasWaveform: waveform != nil)
        waveform?.send(.laidOut(width: Double(max(0, width - 2))))
        scroll = layout.scroll(keeping: focus, from: scroll)
    }

    /// The scene to paint now.
    public func scene(status: SurfaceStatus) -> SurfacePainter.Scene {
        SurfacePainter.Scene(
            controls: store.state, waveform: waveform?.state, layout: layout, focus: focus,
            waveformFocused: waveform != nil && focus == nil, scroll: scroll, status: status, showsHelp: showsHelp)
    }

    /// Handles one key or mouse event.
    public func handle(_ event: InputEvent) {
        switch event {
        case .key(let key): handle(key)
        case .mouse(let mouse): handle(mouse)
        }
        scroll = layout.scroll(keeping: focus, from: scroll)
    }

    // MARK: Keys

    private func handle(_ key: Key) {
        if let editing = store.state.editingKnobID, let editor = store.state.editor {
            handleEditor(key, id: editing, text: editor.value)
            return
        }
        if showsHelp {
            showsHelp = false
            if key == .character("?") { return }
        }
        switch key {
        case .character("q"), .control("c"):
            quitRequested = true
        case .character("?"):
            showsHelp = true
        case .tab:
            moveFocus(by: 1)
        case .backTab:
            moveFocus(by: -1)
        default:
            guard let focus else {
                handleWaveform(key)
                return
            }
            let control = layout.controls[focus]
            switch control.kind {
            case .knob: handleKnob(key, id: control.id)
            case .toggle: handleToggle(key, id: control.id)
            }
        }
    }

    private func moveFocus(by offset: Int) {
        let count = layout.controls.count + (waveform == nil ? 0 : 1)
        guard count > 0 else { return }
        // With a waveform, position 0 is the waveform and the controls follow.
        let position = waveform == nil ? (focus ?? 0) : (focus.map { $0 + 1 } ?? 0)
        let next = ((position + offset) % count + count) % count
        focus = waveform == nil ? next : (next == 0 ? nil : next - 1)
    }

    private func handleKnob(_ key: Key, id: UInt64) {
        guard let knob = store.state.knobs[id: id], knob.parameter?.isWritable ?? true else { return }
        let target: Double? =
            switch key {
            case .left(shift: false), .down(shift: false), .character("h"), .character("j"):
                KnobSteps.norm(of: knob, steps: -1)
            case .right(shift: false), .up(shift: false), .character("l"), .character("k"):
                KnobSteps.norm(of: knob, steps: 1)
            case .left(shift: true), .down(shift: true), .character("H"), .character("J"), .pageDown:
                KnobSteps.norm(of: knob, steps: -1, fraction: 0.1)
            case .right(shift: true), .up(shift: true), .character("L"), .character("K"), .pageUp:
                KnobSteps.norm(of: knob, steps: 1, fraction: 0.1)
            case .home: 0
            case .end: 1
            case .character(let digit) where digit.isASCII && digit.isNumber:
                Double(digit.wholeNumberValue ?? 0) / 10
            default: nil
            }
        if let target {
            store.send(.knob(id, .stepped(toNorm: target)))
            return
        }
        switch key {
        case .character("d"): store.send(.knob(id, .resetRequested))
        case .enter: store.send(.knob(id, .title(.titleTapped(theme))))
        default: break
        }
    }

    private func handleToggle(_ key: Key, id: UInt64) {
        guard let toggle = store.state.toggles[id: id], toggle.parameter?.isWritable ?? true else { return }
        switch key {
        case .character(" "), .enter: store.send(.toggle(id, .toggleTapped(!toggle.isOn)))
        default: break
        }
    }

    private func handleWaveform(_ key: Key) {
        guard let waveform else { return }
        switch key {
        case .right, .character("l"): waveform.send(.accessibilityIncremented)
        case .left, .character("h"): waveform.send(.accessibilityDecremented)
        case .character(" "):
            isPlaying.toggle()
            onPlayPause?(isPlaying)
            return
        default: return
        }
        onSeek?(waveform.state.progress)
    }

    private func handleEditor(_ key: Key, id: UInt64, text: String) {
        switch key {
        case .enter: store.send(.knob(id, .editorDismissed(text)))
        case .escape, .control("c"): store.send(.knob(id, .editorDismissed(nil)))
        case .backspace: store.send(.knob(id, .editorTextChanged(String(text.dropLast()))))
        case .character(let character): store.send(.knob(id, .editorTextChanged(text + String(character))))
        default: break
        }
    }

    // MARK: Mouse

    private func handle(_ mouse: MouseEvent) {
        if store.state.editor != nil || showsHelp { return }
        switch mouse.kind {
        case .press:
            press(mouse)
        case .drag:
            if let drag { dragKnob(drag, to: mouse) } else if waveformDrag != nil { dragWaveform(to: mouse) }
        case .release:
            if let drag, let knob = store.state.knobs[id: drag.id] {
                var tracker = drag.tracker
                store.send(.knob(drag.id, .track(tracker.ended(norm: knob.track.norm))))
            }
            drag = nil
            if let start = waveformDrag {
                releaseWaveform(at: mouse, moved: start.moved)
            }
        case .wheelUp, .wheelDown:
            guard let index = layout.control(atColumn: mouse.x, row: mouse.y, scroll: scroll) else { return }
            let control = layout.controls[index]
            guard control.kind == .knob, let knob = store.state.knobs[id: control.id],
                knob.parameter?.isWritable ?? true
            else { return }
            let target = KnobSteps.norm(
                of: knob, steps: mouse.kind == .wheelUp ? 1 : -1, fraction: mouse.shift ? 0.001 : 0.01)
            store.send(.knob(control.id, .stepped(toNorm: target)))
        }
    }

    private func press(_ mouse: MouseEvent) {
        guard mouse.button == 0 else { return }
        if let row = layout.waveformRow, waveform != nil, mouse.y + scroll == row {
            focus = nil
            waveformDrag = (mouse.x, false)
            return
        }
        guard let index = layout.control(atColumn: mouse.x, row: mouse.y, scroll: scroll) else { return }
        focus = index
        let control = layout.controls[index]
        switch control.kind {
        case .toggle:
            if let toggle = store.state.toggles[id: control.id], toggle.parameter?.isWritable ?? true {
                store.send(.toggle(control.id, .toggleTapped(!toggle.isOn)))
            }
        case .knob:
            guard let knob = store.state.knobs[id: control.id], knob.parameter?.isWritable ?? true else { return }
            var tracker = KnobDragTracker(scaling: KnobDragScaling(diameter: Self.dragDiameter, theme: theme))
            let action = tracker.moved(to: point(mouse, centreColumn: control.centreColumn), norm: knob.track.norm)
            drag = Drag(id: control.id, tracker: tracker, centreColumn: control.centreColumn)
            store.send(.knob(control.id, .track(action)))
        }
    }

    private func dragKnob(_ current: Drag, to mouse: MouseEvent) {
        guard let knob = store.state.knobs[id: current.id] else { return }
        var drag = current
        let action = drag.tracker.moved(to: point(mouse, centreColumn: drag.centreColumn), norm: knob.track.norm)
        self.drag = drag
        store.send(.knob(drag.id, .track(action)))
    }

    /// A cell as a point of the drag math: 16 points a row, and the columns away from the
    /// knob's centre column as the sideways distance from the centre of a 100-point knob.
    private func point(_ mouse: MouseEvent, centreColumn: Int) -> ControlPoint {
        ControlPoint(
            x: Self.dragDiameter / 2 + Double(mouse.x - centreColumn) * Self.pointsPerColumn,
            y: Double(mouse.y) * Self.pointsPerRow)
    }

    /// The row's x of the middle of the pointer's cell: the row starts at column 1, and a click
    /// on a cell seeks to its middle, where the playhead's half block then shows.
    private static func waveformX(column: Int) -> Double {
        Double(column - 1) + 0.5
    }

    private func dragWaveform(to mouse: MouseEvent) {
        guard let waveform, var start = waveformDrag else { return }
        let x = Self.waveformX(column: mouse.x)
        if !start.moved {
            // A drag starts after 3 px of travel: a column is more than that.
            guard mouse.x != start.startColumn else { return }
            start.moved = true
            waveformDrag = start
            waveform.send(.dragStarted(x: Self.waveformX(column: start.startColumn)))
        }
        waveform.send(.dragMoved(x: x))
        onSeek?(waveform.state.progress)
    }

    private func releaseWaveform(at mouse: MouseEvent, moved: Bool) {
        defer { waveformDrag = nil }
        guard let waveform else { return }
        let x = Self.waveformX(column: mouse.x)
        waveform.send(moved ? .dragEnded(x: x) : .tapped(x: x))
        onSeek?(waveform.state.progress)
    }
}
