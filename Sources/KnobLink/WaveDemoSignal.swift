import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The signal a server streams when it was given no audio file: 24 seconds of mono at 16 kHz,
/// the same on every run, with a shape that reads at a glance.
///
/// A two-tone note struck twice a second and decaying, louder on every fourth beat, swelling
/// towards the middle, with a near-silent break from 12 to 14 seconds, a fade-in over the first
/// second and a fade-out over the last two. No randomness: tests and screenshots repeat.
enum WaveDemoSignal {
    static let name = "demo"
    static let sampleRate = 16_000
    static let durationSeconds = 24.0
    static var frameCount: Int { Int(durationSeconds * Double(sampleRate)) }

    /// The sample at `frame`, within -1…1.
    static func sample(at frame: Int) -> Float {
        let t = Double(frame) / Double(sampleRate)
        let beat = t.truncatingRemainder(dividingBy: 0.5)
        let accent = Int(t / 0.5) % 4 == 0 ? 1.0 : 0.6
        let strike = accent * exp(-beat * 7)
        let swell = 0.55 + 0.45 * sin(Double.pi * t / durationSeconds)
        let brk = (12.0..<14.0).contains(t) ? 0.08 : 1.0
        let fade = min(1, t / 1.0, (durationSeconds - t) / 2.0)
        let tone = 0.7 * sin(2 * Double.pi * 220 * t) + 0.3 * sin(2 * Double.pi * 331 * t)
        return Float(max(0, fade) * brk * swell * strike * tone)
    }

    /// The analysis of the whole signal, generated in chunks so that no sample array is kept.
    static func analysis() -> AudioAnalysis {
        var analyzer = AudioAnalyzer(sampleRate: sampleRate, channels: 1, pairs: .discard)
        var chunk = [Float](repeating: 0, count: 4096)
        var frame = 0
        while frame < frameCount {
            let count = min(chunk.count, frameCount - frame)
            for index in 0..<count { chunk[index] = sample(at: frame + index) }
            chunk.withUnsafeBufferPointer { buffer in
                analyzer.consume(interleavedFloat: UnsafeBufferPointer(rebasing: buffer[0..<count]))
            }
            frame += count
        }
        return analyzer.finish()
    }
}
