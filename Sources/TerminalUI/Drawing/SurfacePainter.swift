import Controls
import Parameters
import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Draws a surface into a cell grid: pure, so that tests compare grids and frames.
public struct SurfacePainter: Sendable {
    /// What to draw besides the controls' own state.
    public struct Scene: Sendable {
        /// The controls.
        public var controls: ControlSurfaceFeature.State
        /// The waveform, or `nil` without one.
        public var waveform: ScrubberFeature.State?
        /// The layout for the terminal's size.
        public var layout: SurfaceLayout
        /// The index of the focused control in the layout, or `nil`.
        public var focus: Int?
        /// Whether the waveform has the focus.
        public var waveformFocused: Bool
        /// The rows scrolled away at the top.
        public var scroll: Int
        /// The status line's server facts.
        public var status: SurfaceStatus
        /// Whether the key list is shown.
        public var showsHelp: Bool

        /// Creates a scene.
        public init(
            controls: ControlSurfaceFeature.State, waveform: ScrubberFeature.State? = nil, layout: SurfaceLayout,
            focus: Int?, waveformFocused: Bool = false, scroll: Int = 0, status: SurfaceStatus, showsHelp: Bool = false
        ) {
            self.controls = controls
            self.waveform = waveform
            self.layout = layout
            self.focus = focus
            self.waveformFocused = waveformFocused
            self.scroll = scroll
            self.status = status
            self.showsHelp = showsHelp
        }
    }

    /// The theme's angles.
    public var theme: Theme
    /// The colours.
    public var palette: SurfacePalette
    /// How colours reach the terminal (without colours, the track is drawn sparse).
    public var colorMode: ColorMode

    /// Creates a painter.
    public init(theme: Theme, colorMode: ColorMode) {
        self.theme = theme
        self.palette = SurfacePalette(theme: theme)
        self.colorMode = colorMode
    }

    /// The keys, for the help overlay and `Docs/TERMINAL.md`.
    public static let keyHelp: [(keys: String, effect: String)] = [
        ("Tab / Shift-Tab", "next / previous control"),
        ("← → ↑ ↓  h l j k", "one step (1 %)"),
        ("H L  Shift-arrow  PgUp PgDn", "10 %"),
        ("Home / End", "minimum / maximum"),
        ("0 … 9", "0 %, 10 %, … 90 %"),
        ("d", "default value"),
        ("Enter", "edit the value (toggle: flip)"),
        ("Space", "flip a toggle; play / pause"),
        ("mouse", "drag a knob, wheel, click"),
        ("?", "this list"),
        ("q  Ctrl-C", "quit"),
    ]

    /// Paints `scene` on a grid of the layout's size.
    public func paint(_ scene: Scene) -> CellGrid {
        let layout = scene.layout
        let base = Cell(" ", foreground: palette.text, background: palette.background)
        var grid = CellGrid(width: layout.width, height: layout.height, fill: base)
        if layout.isTooSmall {
            // Short lines, so that the message fits the narrowest terminals too.
            let message = [
                "Terminal", "too small:", "needs", "\(SurfaceLayout.tileWidth + 2)×\(SurfaceLayout.tileHeight + 3)",
            ]
            for (offset, line) in message.enumerated() {
                grid.writeCentred(
                    line, x: 0, width: layout.width, y: max(0, layout.height / 2 - 2) + offset, style: base)
            }
            return grid
        }
        var content = CellGrid(width: layout.width, height: layout.contentHeight, fill: base)
        if let row = layout.waveformRow, let waveform = scene.waveform {
            paintWaveform(waveform, focused: scene.waveformFocused, row: row, into: &content)
        }
        for title in layout.titles {
            var style = base
            style.bold = true
            content.write(" " + title.text + " ", x: 1, y: title.y, style: style)
            var rule = base
            rule.foreground = palette.track
            let ruleStart = title.text.count + 3
            content.write(
                String(repeating: "─", count: max(0, layout.width - ruleStart - 1)), x: ruleStart, y: title.y,
                style: rule)
        }
        for (index, control) in layout.controls.enumerated() {
            let focused = scene.focus == index
            switch control.kind {
            case .knob:
                if let knob = scene.controls.knobs[id: control.id] {
                    paintKnob(knob, at: control, focused: focused, into: &content)
                }
            case .toggle:
                if let toggle = scene.controls.toggles[id: control.id] {
                    paintToggle(toggle, at: control, focused: focused, into: &content)
                }
            }
        }
        for y in 0..<layout.viewportHeight {
            for x in 0..<layout.width {
                grid[x, y] = y + scene.scroll < content.height ? content[x, y + scene.scroll] : base
            }
        }
        paintStatus(scene.status, into: &grid)
        if let editor = scene.controls.editor {
            paintEditor(editor, into: &grid)
        } else if scene.showsHelp {
            paintHelp(into: &grid)
        }
        return grid
    }

    private func paintKnob(
        _ knob: KnobFeature.State, at control: SurfaceLayout.Control, focused: Bool, into grid: inout CellGrid
    ) {
        let transform = knob.track.normValueTransform
        let bipolar = transform.minimumValue < 0 && transform.minimumValue == -transform.maximumValue
        let readOnly = knob.parameter.map { !$0.isWritable } ?? false
        let arc = KnobArc(norm: knob.track.norm, bipolar: bipolar, sparseTrack: colorMode == .none, theme: theme)
        let left = control.x + (SurfaceLayout.tileWidth - KnobArc.columns) / 2
        for dot in arc.dots {
            var cell = Cell(
                dot.character, foreground: dot.isValue ? palette.foreground : palette.track,
                background: palette.background)
            cell.dim = readOnly
            grid[left + dot.column, control.y + dot.row] = cell
        }
        var title = Cell(" ", foreground: palette.text, background: palette.background, dim: readOnly)
        title.reverse = focused
        title.bold = knob.isHeld
        let width = SurfaceLayout.tileWidth - 1
        grid.writeCentred(" " + knob.title.text + " ", x: control.x, width: width, y: control.y + 3, style: title)
        if focused {
            let value =
                knob.parameter.map { $0.string(fromValue: Float(knob.value)) } ?? knob.formatter.forDisplay(knob.value)
            let style = Cell(" ", foreground: palette.foreground, background: palette.background, dim: readOnly)
            grid.writeCentred(value, x: control.x, width: width, y: control.y + 4, style: style)
        }
    }

    private func paintToggle(
        _ toggle: ToggleFeature.State, at control: SurfaceLayout.Control, focused: Bool, into grid: inout CellGrid
    ) {
        let readOnly = toggle.parameter.map { !$0.isWritable } ?? false
        let width = SurfaceLayout.tileWidth - 1
        let mark = Cell(
            " ", foreground: toggle.isOn ? palette.foreground : palette.track, background: palette.background,
            bold: toggle.isOn, dim: readOnly)
        grid.writeCentred(toggle.isOn ? "◉ On" : "○ Off", x: control.x, width: width, y: control.y + 1, style: mark)
        var title = Cell(" ", foreground: palette.text, background: palette.background, dim: readOnly)
        title.reverse = focused
        grid.writeCentred(" " + toggle.displayName + " ", x: control.x, width: width, y: control.y + 3, style: title)
    }

    private func paintWaveform(_ waveform: ScrubberFeature.State, focused: Bool, row: Int, into grid: inout CellGrid) {
        let columns = max(0, grid.width - 2)
        guard columns > 0 else { return }
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let playhead = waveform.progress * Double(columns)
        for column in 0..<columns {
            let height = Self.bar(waveform.bars, column: column, of: columns)
            let level = levels[min(levels.count - 1, max(0, Int((height * Float(levels.count)).rounded(.up)) - 1))]
            let played = Double(column + 1) <= playhead
            var cell = Cell(
                level, foreground: played ? palette.foreground : palette.track, background: palette.background)
            if !played, Double(column) < playhead {
                // The playhead's cell: played on its left half, unplayed on its right.
                cell = Cell("▌", foreground: palette.foreground, background: palette.track)
            }
            cell.reverse = focused && colorMode == .none && played
            grid[1 + column, row] = cell
        }
    }

    /// The highest bar among those that fall in `column` of `columns`, 0…1.
    static func bar(_ bars: [Float], column: Int, of columns: Int) -> Float {
        guard !bars.isEmpty, columns > 0 else { return 0 }
        let start = column * bars.count / columns
        let end = max(start + 1, (column + 1) * bars.count / columns)
        return bars[start..<min(end, bars.count)].max() ?? 0
    }

    private func paintStatus(_ status: SurfaceStatus, into grid: inout CellGrid) {
        let row = grid.height - 1
        let style = Cell(" ", foreground: palette.text, background: palette.panel, reverse: colorMode == .none)
        grid.fill(x: 0, y: row, width: grid.width, height: 1, with: style)
        var facts = " " + status.name
        if !status.isConnected {
            facts += " · disconnected"
        } else if let peers = status.peerCount {
            facts += " · \(peers) peer" + (peers == 1 ? "" : "s")
        }
        let help = "Tab move · ←→ adjust · Enter edit · ? keys · q quit "
        grid.write(facts, x: 0, y: row, style: style)
        if facts.count + help.count + 2 <= grid.width {
            grid.write(help, x: grid.width - help.count, y: row, style: style)
        } else if facts.count + 12 <= grid.width {
            grid.write("? keys q quit ", x: grid.width - 14, y: row, style: style)
        }
    }

    private func paintBox(lines: [String], into grid: inout CellGrid) -> (x: Int, y: Int, width: Int) {
        let width = min(grid.width - 2, (lines.map(\.count).max() ?? 0) + 4)
        let height = min(grid.height - 1, lines.count + 2)
        let x = (grid.width - width) / 2
        let y = max(0, (grid.height - 1 - height) / 2)
        let style = Cell(" ", foreground: palette.text, background: palette.panel, reverse: colorMode == .none)
        grid.fill(x: x, y: y, width: width, height: height, with: style)
        for (offset, line) in lines.prefix(height - 2).enumerated() {
            grid.write(line, x: x + 2, y: y + 1 + offset, style: style)
        }
        return (x, y, width)
    }

    private func paintEditor(_ editor: ValueEditorState, into grid: inout CellGrid) {
        let field = editor.value + "▏"
        let lines = [
            editor.displayName, "", Self.padded(field, to: 16), "",
            "Enter OK · Esc Cancel",
        ]
        let box = paintBox(lines: lines, into: &grid)
        let fieldStyle = Cell(
            " ", foreground: palette.text, background: palette.background, reverse: colorMode == .none)
        let fieldWidth = min(box.width - 4, max(field.count, 16))
        grid.fill(x: box.x + 2, y: box.y + 3, width: fieldWidth, height: 1, with: fieldStyle)
        grid.write(field, x: box.x + 2, y: box.y + 3, style: fieldStyle)
    }

    private func paintHelp(into grid: inout CellGrid) {
        let keyWidth = Self.keyHelp.map(\.keys.count).max() ?? 0
        let lines =
            ["Keys"]
            + Self.keyHelp.map { Self.padded($0.keys, to: keyWidth + 2) + $0.effect }
        _ = paintBox(lines: lines, into: &grid)
    }

    /// `text` with spaces after it up to `width` characters (never shortened).
    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
