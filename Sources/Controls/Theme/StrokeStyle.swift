/// How a line is stroked.
public struct StrokeStyle: Sendable, Hashable {
    /// How the ends of a line look.
    public enum LineCap: String, Sendable, Hashable {
        /// Square, ending at the end point.
        case butt
        /// A half circle past the end point.
        case round
        /// A half square past the end point.
        case square
    }

    /// The line's width.
    public var lineWidth: Double
    /// The ends' shape.
    public var lineCap: LineCap

    /// Creates a stroke style.
    public init(lineWidth: Double, lineCap: LineCap = .round) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
    }
}
