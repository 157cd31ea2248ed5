/// The drag math of a knob (CONTROLS.md 1.4) as a pure function of points and sizes.
///
/// A vertical drag changes the norm: moving up by `2r · touchSensitivity` (r = half the track's
/// height) sweeps the whole range. Away from the vertical centre line the change is finer: within
/// `halfWidth` of the line it is full-sized, then it falls off linearly to about a tenth at the
/// edge. Points may be in any unit (points, pixels, terminal cells) as long as the size is in the
/// same unit; a track that is wider or narrower than it is tall has its horizontal distance
/// scaled so that the edge still counts as the edge.
public struct KnobDragScaling: Sendable, Hashable {
    /// The track's width.
    public var width: Double
    /// The track's height.
    public var height: Double
    /// How many knob diameters of travel a full sweep takes; 2 by default.
    public var touchSensitivity: Double
    /// The fraction of the radius, centred on the vertical line, where the change is full-sized
    /// (at least ±4 units); 0.1 by default.
    public var maxChangeRegionWidthPercentage: Double

    /// Creates the drag math for a track of the given size.
    public init(
        width: Double,
        height: Double,
        touchSensitivity: Double = 2.0,
        maxChangeRegionWidthPercentage: Double = 0.1
    ) {
        self.width = width
        self.height = height
        self.touchSensitivity = touchSensitivity
        self.maxChangeRegionWidthPercentage = maxChangeRegionWidthPercentage
    }

    /// Creates the drag math for a square track, with the theme's sensitivity settings.
    public init(diameter: Double, theme: Theme = Theme()) {
        self.init(
            width: diameter, height: diameter, touchSensitivity: theme.touchSensitivity,
            maxChangeRegionWidthPercentage: theme.maxChangeRegionWidthPercentage)
    }

    /// Half the track's height.
    public var radius: Double {
        height / 2
    }

    /// The norm change per unit of vertical travel on the centre line: `1 / (2r · sensitivity)`.
    public var dragScaling: Double {
        1 / (2 * radius * touchSensitivity)
    }

    /// The vertical travel that sweeps the whole range on the centre line.
    public var fullSweepTravel: Double {
        2 * radius * touchSensitivity
    }

    /// Half the width of the full-change band around the centre line: `max(4, r · percentage / 2)`.
    public var halfWidth: Double {
        max(4, radius * maxChangeRegionWidthPercentage / 2)
    }

    /// The factor applied to the change at horizontal position `x`.
    ///
    /// `dX = min(|x − centre|, r − 1)`, then 1 inside the band and `1 − (dX − halfWidth) / r`
    /// outside it.
    public func scale(atX x: Double) -> Double {
        let centre = width / 2
        let horizontal = centre > 0 ? abs(x - centre) * radius / centre : 0
        let distance = min(horizontal, radius - 1)
        return distance < halfWidth ? 1 : 1 - (distance - halfWidth) / radius
    }

    /// The norm after a move from `previous` to `current`, clamped to `0…1`.
    ///
    /// The change is incremental, so dragging past an end and reversing acts at once.
    public func norm(after norm: Double, from previous: ControlPoint, to current: ControlPoint) -> Double {
        let rise = previous.y - current.y
        return (norm + rise * dragScaling * scale(atX: current.x)).clamped(to: 0...1)
    }
}
