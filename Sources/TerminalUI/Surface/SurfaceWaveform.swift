/// Where a terminal surface's waveform row comes from and where its gestures go: the server's
/// own stream for `knoblink serve --surface`, or anything else that has bars and a playhead.
///
/// The closures may be called on any thread; `observe`'s callback may come on any thread too.
public struct SurfaceWaveform: Sendable {
    /// The playhead and its source, as the row draws them.
    public struct Transport: Sendable, Equatable {
        /// The playhead, 0…1, when it was read.
        public var progress: Double
        /// Whether the playhead moves (at `1 / duration` a second, until 1).
        public var isPlaying: Bool
        /// The source's length in seconds.
        public var duration: Double
        /// Changes when the source changes: the bars are read again.
        public var source: Int

        /// Creates a transport state.
        public init(progress: Double, isPlaying: Bool, duration: Double, source: Int) {
            self.progress = progress
            self.isPlaying = isPlaying
            self.duration = duration
            self.source = source
        }

        /// The playhead `seconds` after it was read.
        public func progress(after seconds: Double) -> Double {
            guard isPlaying, duration > 0, seconds > 0 else { return progress }
            return min(1, progress + seconds / duration)
        }
    }

    /// How many bars the row asks for; it draws the highest of those in each column.
    public static let barCount = 1024

    /// The bars, 0…1, `count` of them.
    public var bars: @Sendable (_ count: Int) -> [Float]
    /// The transport now.
    public var transport: @Sendable () -> Transport
    /// Plays (`true`) or pauses.
    public var setPlaying: @Sendable (Bool) -> Void
    /// Moves the playhead, 0…1.
    public var seek: @Sendable (Double) -> Void
    /// Registers the callback to call after each change of course (play, pause, seek, end, new
    /// source); the surface then reads ``transport`` again.
    public var observe: @Sendable (_ changed: @escaping @Sendable () -> Void) -> Void

    /// Creates a waveform binding.
    public init(
        bars: @escaping @Sendable (_ count: Int) -> [Float], transport: @escaping @Sendable () -> Transport,
        setPlaying: @escaping @Sendable (Bool) -> Void, seek: @escaping @Sendable (Double) -> Void,
        observe: @escaping @Sendable (_ changed: @escaping @Sendable () -> Void) -> Void
    ) {
        self.bars = bars
        self.transport = transport
        self.setPlaying = setPlaying
        self.seek = seek
        self.observe = observe
    }
}
