import Controls

/// A knob's arc in braille (SURFACES.md §5, CONTROLS.md 1.9): the track from the theme's start
/// to end angle (40° to 320°, 0° at 6 o'clock, clockwise), and the value arc over it, filled from
/// the minimum or, for a bipolar knob, from the top centre.
public struct KnobArc: Sendable, Equatable {
    /// The arc's width in cells.
    public static let columns = 6
    /// The arc's height in cells.
    public static let rows = 3

    /// One cell of the drawn arc.
    public struct Dot: Sendable, Equatable {
        /// The column within the arc.
        public var column: Int
        /// The row within the arc.
        public var row: Int
        /// The braille character.
        public var character: Character
        /// Whether the cell holds part of the value arc (drawn in the foreground colour).
        public var isValue: Bool
    }

    /// The cells with dots.
    public let dots: [Dot]

    /// Draws the arc for `norm`.
    ///
    /// - Parameters:
    ///   - norm: the knob's position 0…1.
    ///   - bipolar: fill from the centre of the range rather than from its start.
    ///   - sparseTrack: draw the track as separate dots (without colours, the two arcs would be
    ///     the same dots).
    ///   - theme: the start and end angles.
    public init(norm: Double, bipolar: Bool, sparseTrack: Bool = false, theme: Theme = Theme()) {
        let start = theme.controlIndicatorStartAngle.degrees
        let end = theme.controlIndicatorEndAngle.degrees
        let value = start + norm.clamped(to: 0...1) * (end - start)
        let from = bipolar ? (start + end) / 2 : start
        let (low, high) = (min(from, value), max(from, value))
        var canvas = BrailleCanvas(columns: Self.columns, rows: Self.rows)
        let centre = (x: Double(Self.columns) - 0.5, y: Double(Self.rows * 2) - 0.5)
        let radius = min(centre.x, centre.y)
        var degrees = start
        while degrees <= end + 1e-9 {
            let isValue = degrees >= low - 1e-9 && degrees <= high + 1e-9 && (high > low || !bipolar)
            if isValue || !sparseTrack || Int(degrees.rounded()) % 20 == 0 {
                // Two rings a dot apart: a stroke that reads as a line rather than as dots.
                for ring in sparseTrack && !isValue ? [radius] : [radius, radius - 1] {
                    let point = KnobGeometry.point(
                        center: ControlPoint(x: centre.x, y: centre.y), radius: ring, angle: .degrees(degrees))
                    canvas.set(x: Int(point.x.rounded()), y: Int(point.y.rounded()), isLit: isValue)
                }
            }
            degrees += 2
        }
        var dots: [Dot] = []
        for row in 0..<Self.rows {
            for column in 0..<Self.columns {
                if let cell = canvas.cell(column: column, row: row) {
                    dots.append(Dot(column: column, row: row, character: cell.character, isValue: cell.isLit))
                }
            }
        }
        self.dots = dots
    }
}
