/// How finely `knoblink waveform` divides the audio: audiowaveform's `--zoom` and
/// `--pixels-per-second`, our `--bars`, or the default.
enum WaveformResolution: Sendable, Equatable {
    /// Frames per (min, max) pair, or per bar.
    case zoom(Int)
    /// Pairs (or bars) per second of audio: the zoom is the sample rate divided by it.
    case pixelsPerSecond(Int)
    /// A number of bars over the whole file.
    case bars(Int)
    /// Zoom 256 for data; for bars, as many as fit the picture's width.
    case automatic
}
