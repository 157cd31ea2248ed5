#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the samples under one bar become that bar's height.
///
/// The names are the ones `knoblink waveform --reduction` takes.
public enum BarReduction: String, Sendable, Hashable, CaseIterable {
    /// The largest absolute sample under the bar, 0…1 of full scale.
    case peak
    /// The root mean square of the samples under the bar, 0…1 of full scale.
    case rms
    /// The peak in decibels, mapped linearly from ``decibelFloor`` (0) to 0 dBFS (1).
    case db

    /// The level that maps to a bar of height 0 in ``db`` reduction, in dBFS.
    public static let decibelFloor: Float = -50

    /// The height of a bar whose peak is `linear` (0…1 of full scale), in ``db`` reduction.
    ///
    /// Silence and anything at or below ``decibelFloor`` give 0; full scale and above give 1.
    public static func decibelHeight(linear: Float) -> Float {
        guard linear > 0 else { return 0 }
        let decibels = 20 * log10f(linear)
        return min(1, max(0, (decibels - decibelFloor) / -decibelFloor))
    }
}
