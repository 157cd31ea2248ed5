/// A small canvas of braille dots, two across and four down per cell, where each cell also
/// remembers whether any of its dots is "lit" (drawn in the foreground colour) or only track.
struct BrailleCanvas {
    let columns: Int
    let rows: Int
    private var bits: [UInt8]
    private var lit: [Bool]

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        bits = Array(repeating: 0, count: columns * rows)
        lit = Array(repeating: false, count: columns * rows)
    }

    /// Sets the dot at (`x`, `y`) in dot coordinates; `isLit` marks its cell as foreground.
    mutating func set(x: Int, y: Int, isLit: Bool) {
        guard x >= 0, y >= 0, x < columns * 2, y < rows * 4 else { return }
        let cell = (y / 4) * columns + x / 2
        let masks: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
        bits[cell] |= masks[x % 2][y % 4]
        if isLit { lit[cell] = true }
    }

    /// The character and lit flag of the cell at (`column`, `row`), or `nil` when it has no dot.
    func cell(column: Int, row: Int) -> (character: Character, isLit: Bool)? {
        let index = row * columns + column
        guard bits[index] != 0, let scalar = Unicode.Scalar(0x2800 + UInt32(bits[index])) else { return nil }
        return (Character(scalar), lit[index])
    }
}
