/// What the server's waveform stream is doing: which source, where the playhead is, whether it
/// plays. A program that embeds the server draws its own scrubber from it
/// (``KnobLinkServer/waveState``, ``KnobLinkServer/onWaveChange``), as `knoblink serve --surface`
/// does.
public struct WaveState: Sendable, Equatable {
    /// The source's name, as `/wave/info` sends it: the file's name, or `demo`.
    public var name: String
    /// The source's length in seconds.
    public var duration: Double
    /// Counts the sources the stream has had: a new value means new bars
    /// (``KnobLinkServer/waveBars(count:)``).
    public var source: Int
    /// The playhead, 0…1, when the state was read.
    public var progress: Double
    /// Whether the playhead moves. While it does, it moves at `1 / duration` a second from
    /// ``progress``, until 1; the server reports only changes of course (a play, a pause, a seek,
    /// the end, a new source), not each step.
    public var isPlaying: Bool

    /// Creates a state.
    public init(name: String, duration: Double, source: Int, progress: Double, isPlaying: Bool) {
        self.name = name
        self.duration = duration
        self.source = source
        self.progress = progress
        self.isPlaying = isPlaying
    }
}
