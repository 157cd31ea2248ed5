import Testing
import Waveform

/// Keeping, discarding and streaming the min/max pairs give the same analysis otherwise.
@Suite struct PairHandlingTests {
    /// Channels, bits and split channels; the frames end in a partial bucket and make several
    /// sink blocks.
    static let cases: [(channels: Int, bits: Int, split: Bool)] = [1, 2, 6].flatMap { channels in
        [8, 16].flatMap { bits in [false, true].map { (channels, bits, $0) } }
    }

    static let zoom = 50
    static let frames = zoom * (AudioAnalyzer.sinkBlockLength * 2 + 300) + 17

    /// Noise at a level that changes slowly, fed in chunks of irregular sizes.
    static func analyze(
        channels: Int, options: WaveformOptions, pairs: WaveformPairHandling, summary: Bool = true
    ) -> AudioAnalysis {
        var generator = SplitMix(seed: UInt64(channels * 100 + options.bits))
        var samples = [Int16](repeating: 0, count: frames * channels)
        for index in samples.indices {
            let level = Int32(1 + (index / 5000) % 32_000)
            samples[index] = Int16(Int32.random(in: -level...level, using: &generator))
        }
        var analyzer = AudioAnalyzer(
            sampleRate: 8000, channels: channels, options: options, pairs: pairs, summary: summary)
        samples.withUnsafeBufferPointer { all in
            var start = 0
            var chunkFrames = 1
            while start < all.count {
                let end = min(all.count, start + chunkFrames * channels)
                analyzer.consume(interleaved: UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
                chunkFrames = chunkFrames * 7 % 20_011 + 3
            }
        }
        return analyzer.finish()
    }

    /// The pairs alone (`summary: false`, what `knoblink waveform` does for a .dat or .json file):
    /// the same pairs, frames and length, and an empty summary. Zoom 256 is whole blocks of the
    /// vector loops; zoom 50 leaves a tail in each bucket.
    @Test(arguments: cases)
    func withoutTheSummaryThePairsAreTheSame(channels: Int, bits: Int, split: Bool) throws {
        for zoom in [50, 256] {
            let options = WaveformOptions(zoom: zoom, bits: bits, splitChannels: split)
            let full = Self.analyze(channels: channels, options: options, pairs: .keep)
            let sink = RecordingPairSink()
            let alone = Self.analyze(channels: channels, options: options, pairs: .stream(sink), summary: false)
            let kept = Self.analyze(channels: channels, options: options, pairs: .keep, summary: false)
            #expect(full.summary.bucketCount > 0)
            for analysis in [alone, kept] {
                #expect(analysis.summary.bucketCount == 0, "zoom \(zoom)")
                #expect(analysis.frameCount == full.frameCount)
                #expect(analysis.waveformLength == full.waveformLength)
            }
            #expect(kept.waveform == full.waveform, "zoom \(zoom)")
            let difference = firstDifference(sink.values, full.waveform.samples)
            #expect(difference == nil, "zoom \(zoom): \(String(describing: difference))")
        }
    }

    @Test(arguments: cases)
    func everyModeGivesTheSameSummaryAndPairs(channels: Int, bits: Int, split: Bool) throws {
        let options = WaveformOptions(zoom: Self.zoom, bits: bits, splitChannels: split)
        let kept = Self.analyze(channels: channels, options: options, pairs: .keep)
        let discarded = Self.analyze(channels: channels, options: options, pairs: .discard)
        let sink = RecordingPairSink()
        let streamed = Self.analyze(channels: channels, options: options, pairs: .stream(sink))

        let length = (Self.frames + Self.zoom - 1) / Self.zoom
        let dataChannels = split ? channels : 1
        #expect(kept.waveform.length == length)
        #expect(kept.waveformLength == length)
        for analysis in [discarded, streamed] {
            #expect(analysis.summary == kept.summary)
            #expect(analysis.summary.bars(count: 80) == kept.summary.bars(count: 80))
            #expect(analysis.frameCount == kept.frameCount)
            #expect(analysis.waveformLength == length)
            #expect(analysis.waveform.samples.isEmpty)
            #expect(analysis.waveform.length == 0)
            #expect(analysis.waveform.header == kept.waveform.header)
        }
        #expect(sink.headers == [kept.waveform.header])
        #expect(sink.values.count == kept.waveform.samples.count)
        let difference = firstDifference(sink.values, kept.waveform.samples)
        #expect(difference == nil, "first different value at \(difference ?? -1)")
        #expect(sink.blocks.count > 2)
        // Each block starts where the previous one ended and holds whole indices.
        var next = 0
        for block in sink.blocks {
            #expect(block.firstIndex == next)
            #expect(block.count > 0 && block.count % (2 * dataChannels) == 0)
            #expect(block.count <= 2 * dataChannels * AudioAnalyzer.sinkBlockLength)
            next += block.count / (2 * dataChannels)
        }
        #expect(next == length)
    }

    @Test func anEmptyStreamBeginsAndReceivesNothing() {
        let sink = RecordingPairSink()
        let analyzer = AudioAnalyzer(sampleRate: 44_100, channels: 2, pairs: .stream(sink))
        let analysis = analyzer.finish()
        #expect(sink.headers == [WaveformDataHeader(sampleRate: 44_100, samplesPerPixel: 256, bits: 16, channels: 1)])
        #expect(sink.blocks.isEmpty)
        #expect(analysis.waveformLength == 0)
    }

    @Test(arguments: Fixtures.inputs.map(\.file))
    func aFileGivesTheSameSummaryWhicheverMode(input: String) throws {
        let kept = try AudioAnalysis(contentsOf: Fixtures.path(input))
        let discarded = try AudioAnalysis(contentsOf: Fixtures.path(input), pairs: .discard)
        let sink = RecordingPairSink()
        let streamed = try AudioAnalysis(contentsOf: Fixtures.path(input), pairs: .stream(sink))
        #expect(discarded.summary == kept.summary)
        #expect(streamed.summary == kept.summary)
        #expect(discarded.waveformLength == kept.waveform.length)
        #expect(sink.values == kept.waveform.samples)
        #expect(discarded.fileInfo == kept.fileInfo)
    }
}
