/// A screen's worth of cells, row by row: what a frame draws.
public struct CellGrid: Sendable, Equatable {
    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    /// The cells, `width` per row, top row first.
    public private(set) var cells: [Cell]

    /// A grid of blank cells (a negative size counts as 0).
    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// The cell at column `x`, row `y` (from 0); reading outside gives a blank cell, writing
    /// outside does nothing.
    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x: x, y: y) ? cells[y * width + x] : .blank }
        set { if contains(x: x, y: y) { cells[y * width + x] = newValue } }
    }

    /// Whether (`x`, `y`) is on the grid.
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// Writes `text` from column `x` of row `y`, one character a cell, cut at the right edge;
    /// `style` gives the colours and attributes of every cell written.
    public mutating func write(_ text: String, x: Int, y: Int, style: Cell = .blank) {
        var column = x
        for character in text {
            var cell = style
            cell.character = character
            self[column, y] = cell
            column += 1
            if column >= width { break }
        }
    }

    /// Writes `text` centred in the columns `x..<x+width` of row `y`, cut to fit.
    public mutating func writeCentred(_ text: String, x: Int, width: Int, y: Int, style: Cell = .blank) {
        let fitted = String(text.prefix(max(0, width)))
        write(fitted, x: x + (width - fitted.count) / 2, y: y, style: style)
    }

    /// Fills the rectangle with `cell`.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, with cell: Cell) {
        for row in y..<(y + max(0, height)) {
            for column in x..<(x + max(0, width)) {
                self[column, row] = cell
            }
        }
    }

    /// The characters of row `y`, for tests and logs.
    public func text(row y: Int) -> String {
        String((0..<width).map { self[$0, y].character })
    }
}
