/// Where everything goes on a terminal of a given size: the waveform row on top, the sections
/// with their titles, the controls in tiles that wrap at the right edge, and the status line at
/// the bottom.
///
/// Positions are in cells from the top left of the content, before scrolling; the surface
/// scrolls vertically to keep the focused control in view.
public struct SurfaceLayout: Sendable, Equatable {
    /// A tile's width in columns.
    public static let tileWidth = 12
    /// A tile's height in rows: three rows of arc, the title and the value.
    public static let tileHeight = 5

    /// A placed control.
    public struct Control: Sendable, Equatable {
        /// Knob or toggle.
        public var kind: SurfaceControlKind
        /// The control's identifier.
        public var id: UInt64
        /// The tile's left column.
        public var x: Int
        /// The tile's top row.
        public var y: Int

        /// Whether the cell (`column`, `row`) is in this tile.
        public func contains(column: Int, row: Int) -> Bool {
            column >= x && column < x + SurfaceLayout.tileWidth && row >= y && row < y + SurfaceLayout.tileHeight
        }

        /// The column of the tile's centre.
        public var centreColumn: Int { x + SurfaceLayout.tileWidth / 2 }
    }

    /// A placed section title.
    public struct Title: Sendable, Equatable {
        /// The text.
        public var text: String
        /// Its row.
        public var y: Int
    }

    /// The terminal's columns.
    public var width: Int
    /// The terminal's rows.
    public var height: Int
    /// The controls in focus order (layout order).
    public var controls: [Control]
    /// The section titles.
    public var titles: [Title]
    /// The waveform's row, or `nil` without a waveform.
    public var waveformRow: Int?
    /// The rows the content takes, before scrolling.
    public var contentHeight: Int
    /// Whether the terminal cannot show even one control.
    public var isTooSmall: Bool

    /// The rows available to content: everything but the status line.
    public var viewportHeight: Int { max(0, height - 1) }

    /// Lays out `sections` on a `width` × `height` terminal.
    public init(sections: [SurfaceSection], width: Int, height: Int, hasWaveform: Bool) {
        self.width = width
        self.height = height
        controls = []
        titles = []
        isTooSmall = width < Self.tileWidth + 2 || height < Self.tileHeight + 3
        var y = 0
        if hasWaveform {
            waveformRow = 0
            y = 2
        } else {
            waveformRow = nil
        }
        let columns = max(1, (width - 1) / Self.tileWidth)
        for section in sections {
            if let title = section.title {
                titles.append(Title(text: title, y: y))
                y += 1
            }
            for (index, item) in section.items.enumerated() {
                let column = index % columns
                if index > 0, column == 0 { y += Self.tileHeight }
                controls.append(Control(kind: item.kind, id: item.id, x: 1 + column * Self.tileWidth, y: y))
            }
            if !section.items.isEmpty { y += Self.tileHeight + 1 }
        }
        contentHeight = y
    }

    /// The index of the control whose tile holds the cell, with the content scrolled by `scroll`.
    public func control(atColumn column: Int, row: Int, scroll: Int) -> Int? {
        controls.firstIndex { $0.contains(column: column, row: row + scroll) }
    }

    /// The scroll offset that keeps `focus` in view, starting from `scroll`.
    public func scroll(keeping focus: Int?, from scroll: Int) -> Int {
        let maximum = max(0, contentHeight - viewportHeight)
        var scroll = min(max(0, scroll), maximum)
        guard let focus, controls.indices.contains(focus) else { return scroll }
        let control = controls[focus]
        if control.y < scroll { scroll = control.y }
        if control.y + Self.tileHeight > scroll + viewportHeight {
            scroll = control.y + Self.tileHeight - viewportHeight
        }
        return min(max(0, scroll), maximum)
    }
}
