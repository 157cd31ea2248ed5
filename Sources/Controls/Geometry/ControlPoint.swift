/// A point in a control's local coordinates (points, pixels or terminal cells), y growing down.
public struct ControlPoint: Sendable, Hashable {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate, growing downwards.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
