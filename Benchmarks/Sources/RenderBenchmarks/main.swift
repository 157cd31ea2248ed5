// Waveform rendering: a full render against a frame composed from the two layers, at the issue's
// two sizes, and the PNG encoding of a frame (Docs/BENCHMARKS.md, "Rendering").
//
//   swift run -c release RenderBenchmarks          (or: bash Scripts/bench.sh render)
//
// Wall-clock per operation, medians over many repetitions (the compose step is a few
// microseconds, below the CPU clock's useful resolution). "Frame, 120 FPS step" advances the
// playhead by one frame of a three-minute track (1/21600 per frame), what playback asks for;
// "frame, jump" alternates 10 % and 90 %, what a scrub across the picture asks for.
import BenchHarness
import Controls
import Foundation
import Waveform

struct Scenario {
    var name: String
    var bars: Int
    var width: Int
    var height: Int
    var barGap: Double
}

/// Deterministic bar heights with the texture of music: a slow envelope times a fast wobble.
func values(count: Int) -> [Float] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { index in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let noise = Double(state >> 40) / Double(1 << 24)
        let envelope = 0.5 + 0.5 * sin(Double(index) / Double(count) * 9.0)
        return Float(min(1, envelope * (0.4 + 0.6 * noise)))
    }
}

/// Median and 99th percentile of `samples` nanoseconds, in microseconds.
func summary(_ samples: [UInt64]) -> (median: Double, p99: Double) {
    let sorted = samples.sorted()
    let median = Statistics.median(sorted.map { Double($0) })
    return (median / 1000, Double(Statistics.percentile(sorted, 99)) / 1000)
}

func measure(_ count: Int, _ body: (Int) -> Void) -> [UInt64] {
    var samples: [UInt64] = []
    samples.reserveCapacity(count)
    for index in 0..<count {
        let start = nowNanoseconds()
        body(index)
        samples.append(nowNanoseconds() - start)
    }
    return samples
}

func row(_ label: String, _ samples: [UInt64]) {
    let figures = summary(samples)
    let median = String(format1(figures.median)).leftPadded(10)
    let p99 = String(format1(figures.p99)).leftPadded(10)
    print("  \(label.padded(34)) \(median) µs \(p99) µs")
}

func format1(_ value: Double) -> String {
    String(format: "%.1f", value)
}

extension String {
    func padded(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

let scenarios = [
    Scenario(name: "80 bars in 800×120", bars: 80, width: 800, height: 120, barGap: 2),
    Scenario(name: "3840 bars in 3840×400", bars: 3840, width: 3840, height: 400, barGap: 0),
]

print("Waveform rendering (rounded bars, opaque background; wall clock, median and 99th percentile)")
for scenario in scenarios {
    let style = WaveformStyle(
        width: scenario.width, height: scenario.height, theme: Theme(colorScheme: .dark), barGap: scenario.barGap,
        backgroundColor: .black)
    let layout = WaveformLayout(values: values(count: scenario.bars), style: style)
    let rasterizer = WaveformRasterizer()
    print(scenario.name)
    print("  \("".padded(34)) \("median".leftPadded(10))    \("p99".leftPadded(10))")
    let fullRuns = scenario.width > 1000 ? 15 : 101
    row(
        "full render (bars drawn)",
        measure(fullRuns) { index in
            blackHole(rasterizer.render(layout, progress: Double(index % 10) / 10))
        })
    row(
        "composer set-up (two layers)",
        measure(fullRuns) { _ in
            blackHole(WaveformFrameComposer(layout: layout, progress: 0.5))
        })
    var composer = WaveformFrameComposer(layout: layout, progress: 0)
    let step = 1.0 / (120 * 180)
    row(
        "frame, 120 FPS step",
        measure(20_000) { index in
            composer.compose(progress: Double(index) * step)
        })
    row(
        "frame, jump 10 % ↔ 90 %",
        measure(2_000) { index in
            composer.compose(progress: index % 2 == 0 ? 0.1 : 0.9)
        })
    row(
        "frame, jump 0 ↔ 100 %",
        measure(2_000) { index in
            composer.compose(progress: Double(index % 2))
        })
    composer.compose(progress: 0.437)
    if composer.frame != rasterizer.render(layout, progress: 0.437) {
        print("  MISMATCH: the composed frame differs from the full render")
    }
    let frame = composer.frame
    var size = 0
    row(
        "PNG encode, level 6",
        measure(fullRuns) { _ in
            size = (try? PNGEncoder.encode(frame))?.count ?? 0
        })
    row(
        "PNG encode, level 1",
        measure(fullRuns) { _ in
            blackHole(try? PNGEncoder.encode(frame, compressionLevel: 1))
        })
    print("  PNG size at level 6: \(size) bytes")
}
