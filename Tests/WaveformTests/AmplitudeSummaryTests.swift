import Foundation
import Testing
import Waveform

@Suite struct AmplitudeSummaryTests {
    /// Four frames at 4 Hz, one summary bucket per frame.
    func summary(_ samples: [Int16], sampleRate: Int = 4) -> AmplitudeSummary {
        var analyzer = AudioAnalyzer(sampleRate: sampleRate, channels: 1, options: WaveformOptions(zoom: 1))
        samples.withUnsafeBufferPointer { analyzer.consume(interleaved: $0) }
        return analyzer.finish().summary
    }

    let ramp: [Int16] = [0, 16384, -32767, 100]

    func expectClose(_ actual: [Float], _ expected: [Float], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) {
            #expect(abs(a - e) < 1e-4, "\(actual) is not \(expected)", sourceLocation: sourceLocation)
        }
    }

    @Test func peakBarsAgainstFullScale() {
        expectClose(summary(ramp).bars(count: 2, normalization: .fullScale), [16384 / 32767, 1])
        expectClose(summary(ramp).bars(count: 4, normalization: .fullScale), [0, 16384 / 32767, 1, 100 / 32767])
    }

    @Test func peakBarsNormalisedToTheLoudest() {
        let quiet: [Int16] = [0, 1000, -2000, 500]
        expectClose(summary(quiet).bars(count: 4), [0, 0.5, 1, 0.25])
    }

    @Test func rmsBars() {
        let first: Double = (16384.0 * 16384 / 2).squareRoot() / 32767
        let second: Double = ((32767.0 * 32767 + 100 * 100) / 2).squareRoot() / 32767
        let expected = [Float(first), Float(second)]
        expectClose(summary(ramp).bars(count: 2, reduction: .rms, normalization: .fullScale), expected)
        expectClose(summary(ramp).bars(count: 2, reduction: .rms), expected.map { $0 / expected[1] })
    }

    @Test func decibelBarsHaveAFiftyDecibelFloor() {
        // 16384 is −6.02 dBFS: (50 − 6.02) / 50; 100 is −50.3 dBFS, below the floor.
        let half = (50 + 20 * log10(16384.0 / 32767)) / 50
        expectClose(summary(ramp).bars(count: 4, reduction: .db, normalization: .fullScale), [0, Float(half), 1, 0])
    }

    @Test(arguments: BarReduction.allCases, BarNormalization.allCases)
    func silenceGivesZeroBars(reduction: BarReduction, normalization: BarNormalization) {
        let bars = summary([Int16](repeating: 0, count: 1000)).bars(
            count: 64, reduction: reduction, normalization: normalization)
        #expect(bars == [Float](repeating: 0, count: 64))
    }

    @Test func moreBarsThanBucketsRepeatTheBucketEachStartsIn() {
        expectClose(
            summary(ramp).bars(count: 8, normalization: .fullScale),
            [0, 0, 16384 / 32767, 16384 / 32767, 1, 1, 100 / 32767, 100 / 32767])
        #expect(summary(ramp).bars(count: 65_536).count == 65_536)
    }

    @Test func peakBetweenTimes() {
        let summary = summary(ramp)
        #expect(abs(summary.peak(fromSeconds: 0, toSeconds: 0.5) - 16384 / 32767) < 1e-6)
        #expect(summary.peak(fromSeconds: 0.5, toSeconds: 0.75) == 1)
        #expect(abs(summary.peak(fromSeconds: 0.75, toSeconds: 100) - 100 / 32767) < 1e-6)
        #expect(summary.peak(fromSeconds: 0, toSeconds: 0) == 0)
        #expect(summary.peak(fromSeconds: -5, toSeconds: .nan) == 0)
    }

    @Test func bucketsMergeInPairsWhenFullSoMemoryStaysBounded() {
        var samples = [Int16](repeating: 10, count: 300_000)
        samples[299_999] = 32767
        samples[1] = -20000
        let summary = summary(samples, sampleRate: 1000)
        // 131 072 single frames merge into pairs, then again at 262 144 frames: buckets of 4.
        #expect(summary.framesPerBucket == 4)
        #expect(summary.bucketCount == 75_000)
        #expect(summary.frameCount == 300_000)
        let bars = summary.bars(count: 3, normalization: .fullScale)
        expectClose(bars, [20000 / 32767, 10 / 32767, 1])
        let rms = summary.bars(count: 1, reduction: .rms, normalization: .fullScale)[0]
        let exact = ((299_998.0 * 100 + 20000.0 * 20000 + 32767.0 * 32767) / 300_000).squareRoot() / 32767
        #expect(abs(Double(rms) - exact) < 1e-5)
    }
}
