/// What one pass over some audio gives: its min/max data and the summary bars are made from.
public struct AudioAnalysis: Sendable {
    /// The sample rate, in frames per second.
    public var sampleRate: Int
    /// The channels of the audio (before any mixing).
    public var channels: Int
    /// The frames decoded (not the header's count, which can be wrong).
    public var frameCount: Int
    /// audiowaveform's min/max pairs at the options' zoom; with ``WaveformPairHandling/discard``
    /// or ``WaveformPairHandling/stream(_:)``, the header fields only (no pairs, `length` 0).
    public var waveform: WaveformData
    /// The pairs per channel the analysis produced, whether kept in ``waveform``, streamed or
    /// discarded: one per zoom frames, the last partial bucket included.
    public var waveformLength: Int
    /// What bars are made from, for any bar count, without decoding again; empty (no frames)
    /// when the analysis was asked for the pairs alone (`summary: false`).
    public var summary: AmplitudeSummary
    /// The decoded file, or `nil` when the frames came from elsewhere.
    public var fileInfo: AudioFileInfo?

    /// The length of the audio in seconds.
    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }

    init(
        sampleRate: Int, channels: Int, frameCount: Int, waveform: WaveformData, waveformLength: Int,
        summary: AmplitudeSummary, fileInfo: AudioFileInfo? = nil
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCount = frameCount
        self.waveform = waveform
        self.waveformLength = waveformLength
        self.summary = summary
        self.fileInfo = fileInfo
    }
}
