/// The shape of a bar's ends.
///
/// The names are the ones `knoblink waveform --bar-style` takes.
public enum WaveformBarStyle: String, Sendable, Hashable, CaseIterable {
    /// Ends rounded with a radius of half the bar's width (or half its height when the bar is
    /// shorter than it is wide), so that a full bar is a pill and a silent one a dot.
    case rounded
    /// Plain rectangles.
    case square
}
