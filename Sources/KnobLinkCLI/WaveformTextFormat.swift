import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The `.txt` output of `knoblink waveform`: what a person reads or a plotting tool takes.
///
/// Comment lines starting with `#` describe the file and the bars; then one line per bar: the
/// time the bar starts, in seconds with three decimals, a tab, and its height from 0 to 1 with
/// four decimals. `gnuplot -e "plot 'x.txt' with boxes"` draws it.
enum WaveformTextFormat {
    static func text(
        bars: [Float], analysis: AudioAnalysis, input: String, reduction: BarReduction, normalization: BarNormalization
    ) -> String {
        let duration = analysis.durationSeconds
        let scale = normalization == .loudest ? "the loudest bar is 1" : "full scale is 1"
        var lines = [
            "# knoblink waveform \(DecimalText.lastPathComponent(input))",
            "# \(analysis.sampleRate) Hz, \(analysis.channels) channel\(analysis.channels == 1 ? "" : "s"),"
                + " \(analysis.frameCount) frames, \(DecimalText.fixed(duration, decimals: 3)) s",
            "# \(bars.count) bar\(bars.count == 1 ? "" : "s"), \(reduction.rawValue), \(scale)",
            "# start (s)\theight",
        ]
        lines.reserveCapacity(bars.count + lines.count)
        for (index, bar) in bars.enumerated() {
            let start = duration * Double(index) / Double(bars.count)
            lines.append(DecimalText.fixed(start, decimals: 3) + "\t" + DecimalText.fixed(Double(bar), decimals: 4))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
