/// The streaming accumulator behind every analysis: feed it interleaved frames in chunks of any
/// size, then ask for the ``AudioAnalysis``.
///
/// It computes audiowaveform's min/max pairs at ``WaveformOptions/zoom`` and the
/// ``AmplitudeSummary`` that bars are made from, in one pass. Its memory is the min/max data
/// (4 bytes per pair and channel) plus the bounded summary; it never keeps the audio.
///
/// ```swift
/// var analyzer = AudioAnalyzer(sampleRate: 44_100, channels: 2)
/// samples.withUnsafeBufferPointer { analyzer.consume(interleaved: $0) }
/// let bars = analyzer.finish().summary.bars(count: 80)
/// ```
public struct AudioAnalyzer {
    /// The sample rate of the frames, in frames per second.
    public let sampleRate: Int
    /// The number of interleaved channels in each frame.
    public let channels: Int
    /// The zoom, bits and channel handling.
    public let options: WaveformOptions

    /// Frames consumed so far.
    public private(set) var frameCount = 0
    var outputChannels: Int
    var samples: [Int16] = []
    /// Frames in the bucket being filled (0 ..< zoom).
    var bucketFill = 0
    /// The bucket being filled: min and max per output channel, and the sum of squares.
    var bucketMinimum: [Int32]
    var bucketMaximum: [Int32]
    /// The same for mixed channels, kept out of the arrays so that the hot path touches no array.
    var mixedMinimum = Int32(Int16.max)
    var mixedMaximum = Int32(Int16.min)
    var bucketSquares: Double = 0
    var summary: AmplitudeSummary
    /// Float input converted to 16 bits, reused from chunk to chunk.
    var conversion: [Int16] = []

    /// Creates an analyzer for frames of `channels` interleaved 16-bit or float samples.
    ///
    /// - Precondition: `sampleRate` and `channels` are positive and `options` are valid
    ///   (``WaveformOptions/isValid``).
    public init(sampleRate: Int, channels: Int, options: WaveformOptions = .init()) {
        precondition(sampleRate > 0 && sampleRate <= Int(Int32.max), "sample rate must be positive")
        precondition(channels > 0, "channels must be positive")
        precondition(options.isValid, "zoom must be at least 1 and bits 8 or 16")
        self.sampleRate = sampleRate
        self.channels = channels
        self.options = options
        outputChannels = options.splitChannels ? channels : 1
        bucketMinimum = [Int32](repeating: Int32(Int16.max), count: outputChannels)
        bucketMaximum = [Int32](repeating: Int32(Int16.min), count: outputChannels)
        summary = AmplitudeSummary(sampleRate: sampleRate, framesPerBucket: options.zoom)
    }

    /// Consumes whole frames of interleaved 16-bit samples (`channels` values per frame).
    ///
    /// - Precondition: `interleaved.count` is a multiple of ``channels``.
    /// - Complexity: O(`interleaved.count`).
    public mutating func consume(interleaved: UnsafeBufferPointer<Int16>) {
        precondition(interleaved.count % channels == 0, "consume whole frames")
        guard let base = interleaved.baseAddress else { return }
        let frames = interleaved.count / channels
        var done = 0
        if !options.splitChannels {
            // The first partial bucket, then whole buckets without the bookkeeping of one.
            if bucketFill > 0 {
                let take = min(options.zoom - bucketFill, frames)
                accumulate(base, frames: take)
                bucketFill += take
                done += take
                if bucketFill == options.zoom { emitBucket() }
            }
            done += consumeWholeBuckets(base + done * channels, frames: frames - done)
        }
        while done < frames {
            let take = min(options.zoom - bucketFill, frames - done)
            accumulate(base + done * channels, frames: take)
            bucketFill += take
            done += take
            if bucketFill == options.zoom { emitBucket() }
        }
        frameCount += frames
    }

    /// Consumes whole frames of interleaved float samples, full scale ±1.
    ///
    /// As audiowaveform does, each sample is multiplied by 32767, truncated toward zero and
    /// clamped to ±32767, so that input beyond full scale comes out at full scale.
    ///
    /// - Precondition: `interleavedFloat.count` is a multiple of ``channels``.
    public mutating func consume(interleavedFloat: UnsafeBufferPointer<Float>) {
        consume(interleavedFloat: interleavedFloat, rounding: false)
    }

    /// Consumes float frames, converted as audiowaveform converts stored floats (`rounding` false)
    /// or as libsndfile converts decoded ones (`rounding` true: to nearest, but clamped).
    mutating func consume(interleavedFloat: UnsafeBufferPointer<Float>, rounding: Bool) {
        precondition(interleavedFloat.count % channels == 0, "consume whole frames")
        if conversion.count < interleavedFloat.count {
            conversion = [Int16](repeating: 0, count: interleavedFloat.count)
        }
        var converted = conversion
        conversion = []
        converted.withUnsafeMutableBufferPointer { output in
            if rounding {
                Self.convertRounding(interleavedFloat, into: output)
            } else {
                Self.convert(interleavedFloat, into: output)
            }
            consume(interleaved: UnsafeBufferPointer(rebasing: output[0..<interleavedFloat.count]))
        }
        conversion = converted
    }

    /// The analysis of every frame consumed so far, the last partial bucket included.
    ///
    /// The analyzer is not changed: it can go on consuming and be finished again.
    public func finish() -> AudioAnalysis {
        var copy = self
        return copy.finishInPlace()
    }

    /// Makes room for the pairs of `frames` frames at once, so that the data does not grow by
    /// doubling (which briefly holds the old and the new storage) when the length is known.
    mutating func reserve(frames: Int) {
        let buckets = (frames + options.zoom - 1) / options.zoom
        samples.reserveCapacity(buckets * 2 * outputChannels)
    }

    /// The analysis, moving the data out of the analyzer instead of copying it; the analyzer is
    /// left empty.
    mutating func finishInPlace() -> AudioAnalysis {
        if bucketFill > 0 { emitBucket() }
        let pairs = samples
        samples = []
        let waveform = WaveformData(
            sampleRate: sampleRate, samplesPerPixel: options.zoom, bits: options.bits, channels: outputChannels,
            length: pairs.count / (2 * outputChannels), samples: pairs)
        return AudioAnalysis(
            sampleRate: sampleRate, channels: channels, frameCount: frameCount, waveform: waveform, summary: summary)
    }

    /// Closes the bucket being filled: its pairs go to the data, its peak and energy to the summary.
    mutating func emitBucket() {
        var peak: Int32 = 0
        if !options.splitChannels {
            let low = mixedMinimum
            let high = mixedMaximum
            peak = max(-low, high)
            if options.bits == 8 {
                samples.append(Int16(low / 256))
                samples.append(Int16(high / 256))
            } else {
                samples.append(Int16(low))
                samples.append(Int16(high))
            }
            mixedMinimum = Int32(Int16.max)
            mixedMaximum = Int32(Int16.min)
        }
        for channel in 0..<(options.splitChannels ? outputChannels : 0) {
            let low = bucketMinimum[channel]
            let high = bucketMaximum[channel]
            peak = max(peak, max(-low, high))
            if options.bits == 8 {
                samples.append(Int16(low / 256))
                samples.append(Int16(high / 256))
            } else {
                samples.append(Int16(low))
                samples.append(Int16(high))
            }
            bucketMinimum[channel] = Int32(Int16.max)
            bucketMaximum[channel] = Int32(Int16.min)
        }
        let squares = options.splitChannels ? bucketSquares / Double(channels) : bucketSquares
        summary.add(frames: bucketFill, peak: UInt16(peak), sumSquares: squares)
        bucketSquares = 0
        bucketFill = 0
    }
}
