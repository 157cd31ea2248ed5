import Waveform

/// What a subscriber's bars depend on besides the source: computed once per key and source, and
/// shared by every subscriber with the same key.
struct WaveBarKey: Hashable {
    var count: Int
    var rms: Bool
    var normalized: Bool

    var reduction: BarReduction { rms ? .rms : .peak }
    var normalization: BarNormalization { normalized ? .loudest : .fullScale }
}
