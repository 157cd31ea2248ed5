/// The fields of audiowaveform's min/max data other than its length and pairs.
public struct WaveformDataHeader: Sendable, Equatable {
    /// The sample rate of the audio, in frames per second.
    public var sampleRate: Int
    /// The number of audio frames behind each (min, max) pair (audiowaveform's zoom).
    public var samplesPerPixel: Int
    /// 16 or 8.
    public var bits: Int
    /// The number of channels in the data: 1 when the audio's channels were mixed.
    public var channels: Int

    /// Creates a header from its fields.
    ///
    /// - Precondition: `bits` is 8 or 16 and the other fields are positive.
    public init(sampleRate: Int, samplesPerPixel: Int, bits: Int, channels: Int) {
        precondition(bits == 8 || bits == 16, "bits must be 8 or 16")
        precondition(sampleRate > 0 && samplesPerPixel > 0 && channels > 0)
        self.sampleRate = sampleRate
        self.samplesPerPixel = samplesPerPixel
        self.bits = bits
        self.channels = channels
    }
}
