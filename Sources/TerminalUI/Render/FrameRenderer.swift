/// Turns successive cell grids into the bytes that update a terminal: only the cells that
/// changed since the last frame, inside synchronized output (`ESC[?2026h` … `ESC[?2026l`), so
/// that the terminal never shows half a frame.
///
/// The first frame, and the first after a size change or ``invalidate()``, clears the screen and
/// draws every cell. A frame with no change gives no bytes at all.
public struct FrameRenderer: Sendable {
    /// How colours are written.
    public var colorMode: ColorMode
    private var previous: CellGrid?

    /// Creates a renderer that has drawn nothing yet.
    public init(colorMode: ColorMode) {
        self.colorMode = colorMode
    }

    /// Forgets what is on screen, so that the next frame redraws every cell.
    public mutating func invalidate() {
        previous = nil
    }

    /// The bytes that turn the last frame into `grid`, or `nil` if nothing changed.
    ///
    /// - Complexity: O(cells); the output is proportional to the changed cells.
    public mutating func render(_ grid: CellGrid) -> [UInt8]? {
        let old = previous.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
        defer { previous = grid }
        var output = Output(colorMode: colorMode)
        if old == nil {
            output.append("\u{1B}[0m\u{1B}[2J")
        }
        for y in 0..<grid.height {
            var x = 0
            while x < grid.width {
                let cell = grid[x, y]
                if let old, old[x, y] == cell {
                    x += 1
                    continue
                }
                output.move(x: x, y: y)
                output.draw(cell)
                x += 1
            }
        }
        guard !output.isEmpty else { return nil }
        return output.finish()
    }

    /// Redraws every cell of `grid` (the naive way, for comparison in benchmarks).
    public func renderFull(_ grid: CellGrid) -> [UInt8] {
        var output = Output(colorMode: colorMode)
        output.append("\u{1B}[0m\u{1B}[2J")
        for y in 0..<grid.height {
            output.move(x: 0, y: y)
            for x in 0..<grid.width { output.draw(grid[x, y]) }
        }
        return output.finish()
    }

    /// The bytes of one frame as they are built: tracks the cursor and the current style so that
    /// neither is written when it is already right.
    private struct Output {
        let colorMode: ColorMode
        var bytes: [UInt8] = []
        var cursor: (x: Int, y: Int)?
        var style: Cell?

        var isEmpty: Bool { bytes.isEmpty }

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        mutating func move(x: Int, y: Int) {
            if let cursor, cursor.x == x, cursor.y == y { return }
            append("\u{1B}[\(y + 1);\(x + 1)H")
            cursor = (x, y)
        }

        mutating func draw(_ cell: Cell) {
            if style.map({ !$0.sameStyle(as: cell) }) ?? true {
                append(sgr(cell))
                style = cell
            }
            append(String(cell.character))
            cursor = cursor.map { ($0.x + 1, $0.y) }
        }

        func sgr(_ cell: Cell) -> String {
            var parameters = ["0"]
            if cell.bold { parameters.append("1") }
            if cell.dim { parameters.append("2") }
            if cell.reverse { parameters.append("7") }
            if let foreground = cell.foreground, let text = colorMode.sgrParameters(foreground, background: false) {
                parameters.append(text)
            }
            if let background = cell.background, let text = colorMode.sgrParameters(background, background: true) {
                parameters.append(text)
            }
            return "\u{1B}[" + parameters.joined(separator: ";") + "m"
        }

        mutating func finish() -> [UInt8] {
            Array("\u{1B}[?2026h".utf8) + bytes + Array("\u{1B}[0m\u{1B}[?2026l".utf8)
        }
    }
}
