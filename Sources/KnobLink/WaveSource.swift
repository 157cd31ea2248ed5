import Waveform

/// The audio that the wave stream shows and plays: a decoded file or the generated demo signal
/// (PROTOCOL.md section 5), reduced to what the stream needs.
///
/// Bars and levels come from the analysis made once when the source was loaded, so a new bar
/// count or a level at the playhead never decodes again.
struct WaveSource: Sendable {
    /// The name sent in `/wave/info`: the file's name, or `demo`.
    var name: String
    var durationSeconds: Double
    var sampleRate: Int
    var channels: Int
    /// `count` bar heights, 0…1.
    let bars: @Sendable (_ count: Int, _ reduction: BarReduction, _ normalization: BarNormalization) -> [Float]
    /// The peak level 0…1 of full scale between two times in seconds.
    let peak: @Sendable (_ from: Double, _ to: Double) -> Float
}
