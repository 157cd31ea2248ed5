import Controls
import Parameters

/// The norms that keys and the wheel move a knob to (SURFACES.md §2): 1 % of the normalised
/// range a step (one step of a stepped or indexed parameter), 10 % a big step, the ends, and
/// the tenths for the digit keys.
public enum KnobSteps {
    /// The norm `steps` small steps (negative: down) from the knob's current one.
    ///
    /// - Parameters:
    ///   - knob: the knob's state.
    ///   - steps: how many steps, negative to go down.
    ///   - fraction: the size of one step as a fraction of the range (0.01, or 0.001 for a
    ///     fine wheel notch); a stepped parameter moves by whole steps of at least one.
    public static func norm(of knob: KnobFeature.State, steps: Int, fraction: Double = 0.01) -> Double {
        let transform = knob.track.normValueTransform
        if let parameter = knob.parameter, parameter.unit.isStepped {
            let range = transform.maximumValue - transform.minimumValue
            let size = max(1, (range * fraction).rounded())
            let value = knob.value.rounded() + Double(steps) * size
            return transform.valueToNorm(value)
        }
        return (knob.track.norm + Double(steps) * fraction).clamped(to: 0...1)
    }
}
