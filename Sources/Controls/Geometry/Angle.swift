/// An angle of the knob's arc, measured from 6 o'clock, clockwise.
public struct Angle: Sendable, Hashable, Comparable {
    /// The angle in degrees.
    public var degrees: Double

    /// Creates an angle from degrees.
    public init(degrees: Double) {
        self.degrees = degrees
    }

    /// Creates an angle from radians.
    public init(radians: Double) {
        self.degrees = radians * 180 / .pi
    }

    /// Creates an angle from degrees.
    public static func degrees(_ degrees: Double) -> Angle {
        Angle(degrees: degrees)
    }

    /// The angle in radians.
    public var radians: Double {
        degrees * .pi / 180
    }

    /// The angle as a fraction of a full turn in `0..<1`: degrees wrapped by adding or subtracting
    /// 360 until they fall in `0..<360`, then divided by 360 (365° → 5/360, −5° → 355/360,
    /// 360° → 0).
    public var normalized: Double {
        var wrapped = degrees.truncatingRemainder(dividingBy: 360)
        if wrapped < 0 {
            wrapped += 360
        }
        return wrapped == 360 ? 0 : wrapped / 360
    }

    /// Orders angles by their degrees.
    public static func < (lhs: Angle, rhs: Angle) -> Bool {
        lhs.degrees < rhs.degrees
    }
}
