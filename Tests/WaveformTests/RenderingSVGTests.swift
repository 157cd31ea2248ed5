import Controls
import Foundation
import Testing
import Waveform

/// Compares SVG renderings with the files in `Fixtures/Rendering/`.
///
/// Run with `KNOBLINK_REGENERATE_SVG=1` to rewrite them after a deliberate change, then look at
/// them before committing.
@Suite struct RenderingSVGTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Rendering")
    static let regenerate = ProcessInfo.processInfo.environment["KNOBLINK_REGENERATE_SVG"] == "1"

    /// A short phrase: a swell, a silent gap, a decay.
    static let values: [Float] = [
        0.1, 0.3, 0.55, 0.8, 1, 0.85, 0.6, 0.35, 0, 0, 0.2, 0.7, 0.9, 0.65, 0.45, 0.3, 0.2, 0.12, 0.05, 0.02,
    ]

    private func check(_ svg: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = Self.fixtures.appendingPathComponent(name)
        if Self.regenerate {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try Data(svg.utf8).write(to: url)
            return
        }
        let stored = try String(contentsOf: url, encoding: .utf8)
        #expect(
            stored == svg, "\(url.path) differs; rerun with KNOBLINK_REGENERATE_SVG=1", sourceLocation: sourceLocation)
    }

    @Test func roundedLightWithBackgroundSplitInsideABar() throws {
        let style = WaveformStyle(width: 200, height: 48, theme: Theme(colorScheme: .light), backgroundColor: .white)
        let layout = WaveformLayout(values: Self.values, style: style)
        try check(WaveformSVGRenderer().render(layout, progress: 0.37), "rounded-light-037.svg")
    }

    @Test func squareDarkTransparentUnplayed() throws {
        var style = WaveformStyle(
            width: 160, height: 40, theme: Theme(colorScheme: .dark), barGap: 1, barStyle: .square)
        style.unplayedColor = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.25)
        let layout = WaveformLayout(values: Self.values, style: style)
        try check(WaveformSVGRenderer().render(layout, progress: 0), "square-dark-000.svg")
    }

    @Test func everythingPlayed() throws {
        let style = WaveformStyle(width: 100, height: 30, barGap: 2)
        let layout = WaveformLayout(values: Array(Self.values.prefix(10)), style: style)
        try check(WaveformSVGRenderer().render(layout, progress: 1), "rounded-light-100.svg")
    }

    @Test func theSplitBarIsDrawnTwiceClippedAtTheProgressPoint() {
        let style = WaveformStyle(width: 100, height: 20, barGap: 2, barStyle: .square)
        let layout = WaveformLayout(values: Array(repeating: 1, count: 10), style: style)
        let svg = WaveformSVGRenderer().render(layout, progress: 0.456)
        #expect(svg.contains("<clipPath id=\"played\"><rect width=\"45.6\" height=\"20\"/></clipPath>"))
        #expect(svg.contains("<clipPath id=\"unplayed\"><rect x=\"45.6\" width=\"54.4\" height=\"20\"/></clipPath>"))
        let split = "<rect x=\"41\" y=\"0\" width=\"8\" height=\"20\""
        #expect(svg.components(separatedBy: split).count == 3)
    }

    @Test func noClipPathWhenTheSplitFallsInAGap() {
        let style = WaveformStyle(width: 100, height: 20, barGap: 2)
        let layout = WaveformLayout(values: Array(repeating: 1, count: 10), style: style)
        #expect(!WaveformSVGRenderer().render(layout, progress: 0.5).contains("clipPath"))
    }

    @Test func clipPathIdentifiersTakeThePrefix() {
        let style = WaveformStyle(width: 100, height: 20, barGap: 2)
        let layout = WaveformLayout(values: Array(repeating: 1, count: 10), style: style)
        let svg = WaveformSVGRenderer(idPrefix: "track7-").render(layout, progress: 0.456)
        #expect(svg.contains("<clipPath id=\"track7-played\">"))
        #expect(svg.contains("clip-path=\"url(#track7-unplayed)\""))
        #expect(!svg.contains("id=\"played\""))
    }
}
