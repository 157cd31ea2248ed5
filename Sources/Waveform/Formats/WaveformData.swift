/// BBC audiowaveform's min/max data: one (min, max) pair per `samplesPerPixel` frames.
///
/// The values are 16-bit (−32768…32767) or, when ``bits`` is 8, the 16-bit values divided by 256
/// truncating toward zero (−128…127), both held as `Int16`. ``datBytes(version:)``,
/// ``init(datBytes:)``, ``jsonText()`` and ``init(jsonText:)`` read and write audiowaveform's
/// `.dat` and `.json` files byte for byte.
public struct WaveformData: Sendable, Equatable {
    /// The sample rate of the audio, in frames per second.
    public var sampleRate: Int
    /// The number of audio frames behind each (min, max) pair (audiowaveform's zoom).
    public var samplesPerPixel: Int
    /// 16 or 8.
    public var bits: Int
    /// The number of channels in the data: 1 when the audio's channels were mixed.
    public var channels: Int
    /// The number of pairs per channel.
    public var length: Int
    /// For each index, for each channel: min, then max (`length × channels × 2` values).
    public var samples: [Int16]

    /// Creates min/max data from its parts.
    ///
    /// - Precondition: `samples.count == length × channels × 2`, `bits` is 8 or 16, and the other
    ///   fields are positive (`length` may be 0).
    public init(sampleRate: Int, samplesPerPixel: Int, bits: Int, channels: Int, length: Int, samples: [Int16]) {
        precondition(bits == 8 || bits == 16, "bits must be 8 or 16")
        precondition(sampleRate > 0 && samplesPerPixel > 0 && channels > 0 && length >= 0)
        precondition(samples.count == length * channels * 2, "samples must hold length × channels × 2 values")
        self.sampleRate = sampleRate
        self.samplesPerPixel = samplesPerPixel
        self.bits = bits
        self.channels = channels
        self.length = length
        self.samples = samples
    }

    /// The data's fields other than its length and pairs.
    public var header: WaveformDataHeader {
        WaveformDataHeader(sampleRate: sampleRate, samplesPerPixel: samplesPerPixel, bits: bits, channels: channels)
    }

    /// The (min, max) pair of `channel` at `index`.
    public func pair(at index: Int, channel: Int = 0) -> (min: Int16, max: Int16) {
        let base = (index * channels + channel) * 2
        return (samples[base], samples[base + 1])
    }
}
