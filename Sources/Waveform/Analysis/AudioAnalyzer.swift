/// The streaming accumulator behind every analysis: feed it interleaved frames in chunks of any
/// size, then ask for the ``AudioAnalysis``.
///
/// It computes audiowaveform's min/max pairs at ``WaveformOptions/zoom`` and (unless told not
/// to) the ``AmplitudeSummary`` that bars are made from, in one pass. Its memory is the bounded summary
/// plus, with ``WaveformPairHandling/keep`` (the default), the min/max data (4 bytes per pair
/// and channel); with ``WaveformPairHandling/discard`` or ``WaveformPairHandling/stream(_:)`` it
/// does not grow with the audio. It never keeps the audio.
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
    /// Whether the analysis has an ``AmplitudeSummary`` (the bars); without one it computes the
    /// min/max pairs alone, as audiowaveform does, and ``AudioAnalysis/summary`` stays empty.
    public let summarizes: Bool

    /// The most indices handed to a ``WaveformPairSink`` in one call: 4096 pairs of a mixed
    /// channel are 16 KB, so a call costs nothing next to the 1 M frames behind them at zoom 256.
    public static let sinkBlockLength = 4096

    /// Frames consumed so far.
    public private(set) var frameCount = 0
    /// Pairs per channel produced so far (kept, streamed or discarded); the bucket being filled
    /// is not counted until it closes.
    public internal(set) var pairCount = 0
    var outputChannels: Int
    /// The pairs kept, or with a sink those not delivered yet (at most one block).
    var samples: [Int16] = []
    /// What happens to the pairs.
    let pairHandling: WaveformPairHandling
    /// Whether a closed bucket's pairs are appended to `samples` (kept or waiting for the sink).
    let storesPairs: Bool
    /// The pairs already handed to the sink, per channel.
    var deliveredPairs = 0
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
    /// - Parameters:
    ///   - sampleRate: frames per second.
    ///   - channels: interleaved samples per frame.
    ///   - options: zoom, bits and channel handling of the min/max data.
    ///   - pairs: what happens to the min/max pairs: kept in the analysis (the default),
    ///     discarded, or streamed to a sink, whose ``WaveformPairSink/begin(_:)`` is called here.
    ///   - summary: `false` for the min/max pairs alone (a file of min/max data needs nothing
    ///     else): the summary stays empty and the stereo loop does a quarter less work.
    /// - Precondition: `sampleRate` and `channels` are positive and `options` are valid
    ///   (``WaveformOptions/isValid``).
    public init(
        sampleRate: Int, channels: Int, options: WaveformOptions = .init(), pairs: WaveformPairHandling = .keep,
        summary: Bool = true
    ) {
        precondition(sampleRate > 0 && sampleRate <= Int(Int32.max), "sample rate must be positive")
        precondition(channels > 0, "channels must be positive")
        precondition(options.isValid, "zoom must be at least 1 and bits 8 or 16")
        self.sampleRate = sampleRate
        self.channels = channels
        self.options = options
        summarizes = summary
        outputChannels = options.splitChannels ? channels : 1
        bucketMinimum = [Int32](repeating: Int32(Int16.max), count: outputChannels)
        bucketMaximum = [Int32](repeating: Int32(Int16.min), count: outputChannels)
        self.summary = AmplitudeSummary(sampleRate: sampleRate, framesPerBucket: options.zoom)
        pairHandling = pairs
        switch pairs {
        case .keep:
            storesPairs = true
        case .discard:
            storesPairs = false
        case .stream(let sink):
            storesPairs = true
            samples.reserveCapacity(Self.sinkBlockLength * 2 * outputChannels)
            sink.begin(
                WaveformDataHeader(
                    sampleRate: sampleRate, samplesPerPixel: options.zoom, bits: options.bits,
                    channels: outputChannels))
        }
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
    /// The analyzer is not changed: it can go on consuming and be finished again, except with
    /// ``WaveformPairHandling/stream(_:)``, where finishing hands the last pairs to the sink and
    /// so ends the stream: finish such an analyzer once, after its last frames.
    public func finish() -> AudioAnalysis {
        var copy = self
        return copy.finishInPlace()
    }

    /// Makes room for the pairs of `frames` frames at once, so that the data does not grow by
    /// doubling (which briefly holds the old and the new storage) when the length is known.
    mutating func reserve(frames: Int) {
        guard pairHandling.keepsPairs else { return }
        let buckets = (frames + options.zoom - 1) / options.zoom
        samples.reserveCapacity(buckets * 2 * outputChannels)
    }

    /// The analysis, moving the data out of the analyzer instead of copying it; the analyzer is
    /// left empty.
    mutating func finishInPlace() -> AudioAnalysis {
        if bucketFill > 0 { emitBucket() }
        flushToSink()
        let pairs = pairHandling.keepsPairs ? samples : []
        samples = []
        let waveform = WaveformData(
            sampleRate: sampleRate, samplesPerPixel: options.zoom, bits: options.bits, channels: outputChannels,
            length: pairs.count / (2 * outputChannels), samples: pairs)
        return AudioAnalysis(
            sampleRate: sampleRate, channels: channels, frameCount: frameCount, waveform: waveform,
            waveformLength: pairCount, summary: summary)
    }

    /// Appends one pair, at the data's bits, unless the pairs are discarded.
    @inline(__always)
    private mutating func storePair(_ low: Int32, _ high: Int32) {
        guard storesPairs else { return }
        let divisor: Int32 = options.bits == 8 ? 256 : 1
        samples.append(Int16(low / divisor))
        samples.append(Int16(high / divisor))
    }

    /// Hands the pairs waiting in `samples` to the sink, if there is one.
    mutating func flushToSink() {
        guard case .stream(let sink) = pairHandling, !samples.isEmpty else { return }
        samples.withUnsafeBufferPointer { sink.receive($0, firstIndex: deliveredPairs) }
        deliveredPairs += samples.count / (2 * outputChannels)
        samples.removeAll(keepingCapacity: true)
    }

    /// Hands the pairs of whole buckets just computed on to where they go: appended to the data,
    /// dropped, or to the sink straight from `values` after any pairs still waiting.
    mutating func deliver(_ values: UnsafeBufferPointer<Int16>) {
        switch pairHandling {
        case .keep:
            samples.append(contentsOf: values)
        case .discard:
            break
        case .stream(let sink):
            flushToSink()
            sink.receive(values, firstIndex: deliveredPairs)
            deliveredPairs += values.count / (2 * outputChannels)
        }
    }

    /// Closes the bucket being filled: its pairs are kept, wait in `samples` for the sink (handed
    /// over once a block is full) or are dropped; its peak and energy go to the summary.
    mutating func emitBucket() {
        var peak: Int32 = 0
        pairCount += 1
        if !options.splitChannels {
            peak = max(-mixedMinimum, mixedMaximum)
            storePair(mixedMinimum, mixedMaximum)
            mixedMinimum = Int32(Int16.max)
            mixedMaximum = Int32(Int16.min)
        }
        for channel in 0..<(options.splitChannels ? outputChannels : 0) {
            let low = bucketMinimum[channel]
            let high = bucketMaximum[channel]
            peak = max(peak, max(-low, high))
            storePair(low, high)
            bucketMinimum[channel] = Int32(Int16.max)
            bucketMaximum[channel] = Int32(Int16.min)
        }
        if summarizes {
            let squares = options.splitChannels ? bucketSquares / Double(channels) : bucketSquares
            summary.add(frames: bucketFill, peak: UInt16(peak), sumSquares: squares)
        }
        bucketSquares = 0
        bucketFill = 0
        if case .stream = pairHandling, samples.count >= Self.sinkBlockLength * 2 * outputChannels {
            flushToSink()
        }
    }
}
