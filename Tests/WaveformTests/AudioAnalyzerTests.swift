import Testing
import Waveform

@Suite struct AudioAnalyzerTests {
    func analyze(
        _ samples: [Int16], channels: Int, options: WaveformOptions, chunkFrames: Int? = nil
    ) -> AudioAnalysis {
        var analyzer = AudioAnalyzer(sampleRate: 8000, channels: channels, options: options)
        let step = (chunkFrames ?? samples.count / channels) * channels
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + max(channels, step))
            samples[start..<end].withUnsafeBufferPointer { analyzer.consume(interleaved: $0) }
            start = end
        }
        return analyzer.finish()
    }

    @Test func stereoMixingTruncatesTowardZero() {
        // Sums −3, 3, −1, −32768 − 32768: audiowaveform's C division gives −1, 1, 0, −32768.
        let samples: [Int16] = [-3, 0, 2, 1, -1, 0, -32768, -32768]
        let one = analyze(samples, channels: 2, options: WaveformOptions(zoom: 1))
        #expect(one.waveform.samples == [-1, -1, 1, 1, 0, 0, -32768, -32768])
        let all = analyze(samples, channels: 2, options: WaveformOptions(zoom: 4))
        #expect(all.waveform.samples == [-32768, 1])
    }

    @Test func sixChannelsMixByIntegerDivision() {
        // One frame summing to −7: −7 / 6 truncates to −1; one summing to 11 gives 1.
        let samples: [Int16] = [-7, 0, 0, 0, 0, 0, 5, 6, 0, 0, 0, 0]
        let analysis = analyze(samples, channels: 6, options: WaveformOptions(zoom: 1))
        #expect(analysis.waveform.samples == [-1, -1, 1, 1])
        #expect(analysis.waveform.channels == 1)
    }

    @Test func lastPartialBucketIsKept() {
        let samples: [Int16] = [1, 2, 3, 4, 5, 6, 7, -8, 9, 10]
        let analysis = analyze(samples, channels: 1, options: WaveformOptions(zoom: 4))
        #expect(analysis.waveform.length == 3)
        #expect(analysis.waveform.samples == [1, 4, -8, 7, 9, 10])
        #expect(analysis.frameCount == 10)
    }

    @Test func eightBitsDivideBy256TruncatingTowardZero() {
        let samples: [Int16] = [-255, 255, -256, 511, -32768, 32767]
        let analysis = analyze(samples, channels: 1, options: WaveformOptions(zoom: 2, bits: 8))
        #expect(analysis.waveform.samples == [0, 0, -1, 1, -128, 127])
        #expect(analysis.waveform.bits == 8)
    }

    @Test func splitChannelsKeepOnePairPerChannel() {
        let samples: [Int16] = [1, -1, 5, 0, 3, -9]
        let analysis = analyze(samples, channels: 2, options: WaveformOptions(zoom: 2, splitChannels: true))
        #expect(analysis.waveform.channels == 2)
        #expect(analysis.waveform.samples == [1, 5, -1, 0, 3, 3, -9, -9])
    }

    @Test(arguments: [1, 2, 3, 6])
    func agreesWithTheFrameByFrameReferenceOnNoise(channels: Int) {
        var generator = SplitMix(seed: UInt64(channels))
        let frames = 10_007
        let samples = (0..<(frames * channels)).map { _ in Int16(truncatingIfNeeded: generator.next()) }
        for (zoom, chunk) in [(1, 7), (7, 1000), (256, 333), (300, 4096), (20_000, 5000)] {
            for split in [false, true] {
                for bits in [8, 16] {
                    let options = WaveformOptions(zoom: zoom, bits: bits, splitChannels: split)
                    let analysis = analyze(samples, channels: channels, options: options, chunkFrames: chunk)
                    let expected = ReferenceMinMax.pairs(
                        samples, channels: channels, zoom: zoom, bits: bits, split: split)
                    #expect(analysis.waveform.samples == expected, "zoom \(zoom) split \(split) bits \(bits)")
                }
            }
        }
    }

    @Test func floatBeyondFullScaleIsClampedAfterTruncation() {
        let input: [Float] = [2, -2, 1, -1, 0.5, -0.5, 0.00004, -0.00004, .nan, .infinity]
        var analyzer = AudioAnalyzer(sampleRate: 8000, channels: 1, options: WaveformOptions(zoom: 1))
        input.withUnsafeBufferPointer { analyzer.consume(interleavedFloat: $0) }
        let values = analyzer.finish().waveform.samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        // 0.5 × 32767 = 16383.5 and 0.00004 × 32767 = 1.31 truncate; NaN becomes 0.
        #expect(values == [32767, -32767, 32767, -32767, 16383, -16383, 1, -1, 0, 32767])
    }

    @Test func finishCanBeCalledMidStreamAndAgain() {
        var analyzer = AudioAnalyzer(sampleRate: 8000, channels: 1, options: WaveformOptions(zoom: 2))
        let first: [Int16] = [4, -4, 2]
        first.withUnsafeBufferPointer { analyzer.consume(interleaved: $0) }
        #expect(analyzer.finish().waveform.samples == [-4, 4, 2, 2])
        let second: [Int16] = [-6]
        second.withUnsafeBufferPointer { analyzer.consume(interleaved: $0) }
        #expect(analyzer.finish().waveform.samples == [-4, 4, -6, 2])
    }

    @Test func nothingConsumedGivesEmptyData() {
        let analysis = AudioAnalyzer(sampleRate: 8000, channels: 2).finish()
        #expect(analysis.waveform.length == 0)
        #expect(analysis.frameCount == 0)
        #expect(analysis.summary.bars(count: 3) == [0, 0, 0])
        #expect(analysis.durationSeconds == 0)
    }

    @Test(arguments: [1, 2])
    func rmsOfLongRunsMatchesTheExactSum(channels: Int) {
        var generator = SplitMix(seed: 99)
        let samples = (0..<(100_003 * channels)).map { _ in Int16(truncatingIfNeeded: generator.next() >> 3) }
        let analysis = analyze(samples, channels: channels, options: WaveformOptions(zoom: 4096), chunkFrames: 7000)
        var squares = 0.0
        for frame in 0..<100_003 {
            var sum = 0
            for channel in 0..<channels { sum += Int(samples[frame * channels + channel]) }
            let mixed = Double(sum / channels)
            squares += mixed * mixed
        }
        let exact = (squares / 100_003).squareRoot() / 32767
        let rms = analysis.summary.bars(count: 1, reduction: .rms, normalization: .fullScale)[0]
        #expect(abs(Double(rms) - exact) < exact * 1e-5, "\(rms) against \(exact)")
    }

    @Test(arguments: [2, 3])
    func splitRMSIsTheRMSOfEverySample(channels: Int) {
        var generator = SplitMix(seed: 5)
        let samples = (0..<(50_001 * channels)).map { _ in Int16(truncatingIfNeeded: generator.next() >> 2) }
        let options = WaveformOptions(zoom: 1000, splitChannels: true)
        let analysis = analyze(samples, channels: channels, options: options, chunkFrames: 3333)
        let squares = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        let exact = (squares / Double(samples.count)).squareRoot() / 32767
        let rms = analysis.summary.bars(count: 1, reduction: .rms, normalization: .fullScale)[0]
        #expect(abs(Double(rms) - exact) < exact * 1e-5, "\(rms) against \(exact)")
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        #expect(analysis.summary.bars(count: 1, normalization: .fullScale)[0] == min(1, Float(peak) / 32767))
    }

    @Test(arguments: [1, 2])
    func negativeFullScaleDoesNotOverflowTheSquares(channels: Int) {
        let samples = [Int16](repeating: -32768, count: 1024 * channels)
        let summary = analyze(samples, channels: channels, options: WaveformOptions(zoom: 256)).summary
        #expect(summary.bars(count: 4, reduction: .rms, normalization: .fullScale) == [1, 1, 1, 1])
        #expect(summary.bars(count: 4, normalization: .fullScale) == [1, 1, 1, 1])
    }
}
