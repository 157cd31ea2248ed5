#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Where a knob's parts are drawn: the background track, the value arc and the indicator.
///
/// Angles are measured from 6 o'clock, clockwise, in coordinates whose y axis grows downwards.
/// Both arcs sit on the circle inset by half the value stroke; the indicator is a radial segment
/// from that circle inwards, `min(indicatorLength, r)` from the edge, at the value's angle between
/// the theme's start and end angles.
public struct KnobGeometry: Sendable, Hashable {
    /// A circular arc swept from one angle to another.
    public struct Arc: Sendable, Hashable {
        /// The circle's centre.
        public var center: ControlPoint
        /// The circle's radius.
        public var radius: Double
        /// Where the arc starts.
        public var startAngle: Angle
        /// Where the arc ends; the sweep is clockwise when it is greater than the start.
        public var endAngle: Angle

        /// The arc's first point.
        public var startPoint: ControlPoint {
            KnobGeometry.point(center: center, radius: radius, angle: startAngle)
        }

        /// The arc's last point.
        public var endPoint: ControlPoint {
            KnobGeometry.point(center: center, radius: radius, angle: endAngle)
        }

        /// The signed sweep in degrees.
        public var sweepDegrees: Double {
            endAngle.degrees - startAngle.degrees
        }
    }

    /// A straight line.
    public struct Segment: Sendable, Hashable {
        /// Where the line starts.
        public var from: ControlPoint
        /// Where the line ends.
        public var to: ControlPoint
    }

    /// The top-left corner of the knob's square.
    public var origin: ControlPoint
    /// The width and height of the knob's square.
    public var diameter: Double
    /// The centre of the knob.
    public var center: ControlPoint
    /// The background track, from the start angle to the end angle.
    public var track: Arc
    /// The value arc from the start angle to the value's angle, or `nil` at norm 0 where it has no
    /// length.
    public var value: Arc?
    /// The indicator line, from the arc's circle inwards.
    public var indicator: Segment

    /// Lays out a knob.
    ///
    /// - Parameters:
    ///   - diameter: the side of the knob's square.
    ///   - norm: the value's position 0…1 (clamped).
    ///   - theme: the angles, strokes and indicator length.
    ///   - origin: the square's top-left corner.
    public init(diameter: Double, norm: Double, theme: Theme, origin: ControlPoint = ControlPoint(x: 0, y: 0)) {
        let norm = norm.isNaN ? 0 : norm.clamped(to: 0...1)
        let outer = diameter / 2
        let center = ControlPoint(x: origin.x + outer, y: origin.y + outer)
        let arcRadius = outer - theme.controlValueStrokeLineWidthHalf
        let valueAngle = theme.angle(for: norm)
        self.origin = origin
        self.diameter = diameter
        self.center = center
        track = Arc(
            center: center, radius: arcRadius, startAngle: theme.controlIndicatorStartAngle,
            endAngle: theme.controlIndicatorEndAngle)
        value =
            norm > 0
            ? Arc(center: center, radius: arcRadius, startAngle: theme.controlIndicatorStartAngle, endAngle: valueAngle)
            : nil
        let innerRadius = outer - min(theme.controlIndicatorLength, outer)
        indicator = Segment(
            from: Self.point(center: center, radius: arcRadius, angle: valueAngle),
            to: Self.point(center: center, radius: innerRadius, angle: valueAngle))
    }

    /// The point at `radius` from `center` in the direction `angle` (0 = down, clockwise).
    public static func point(center: ControlPoint, radius: Double, angle: Angle) -> ControlPoint {
        ControlPoint(x: center.x - radius * sin(angle.radians), y: center.y + radius * cos(angle.radians))
    }
}
