/// How far decoding has come.
public struct WaveformProgress: Sendable, Equatable {
    /// Frames decoded so far.
    public var frames: Int
    /// 0…1 of the frame count the file's header gives, or `nil` when the header gives none.
    ///
    /// The header's count can be an estimate (MP3): the fraction is clamped to 1 and reaches 1 at
    /// the end of decoding whatever the estimate was.
    public var fraction: Double?

    /// Creates a progress value.
    public init(frames: Int, fraction: Double?) {
        self.frames = frames
        self.fraction = fraction
    }
}
