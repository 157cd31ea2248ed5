import Controls
import Testing
import Waveform

@Suite struct RenderingFrameComposerTests {
    static let progressions: [Double] = [
        0, 0.001, 0.3, 0.3004, 0.31, 0.9999, 1, 0.5, 0.123456, 0, 1, 0.77, 0.769, 0.2, -3, 2, .nan, 0.45,
    ]

    static let styles: [WaveformStyle] = {
        var translucent = WaveformStyle(
            width: 203, height: 57, theme: Theme(colorScheme: .dark), barWidth: 4, barGap: 1.5,
            backgroundColor: RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5))
        translucent.unplayedColor = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.3)
        return [
            WaveformStyle(width: 160, height: 48, barGap: 2, backgroundColor: .white),
            WaveformStyle(width: 97, height: 31, barGap: 0.7, barStyle: .square),
            translucent,
        ]
    }()

    @Test(arguments: styles)
    func everyFrameIsTheFullRenderAtThatProgress(style: WaveformStyle) {
        let values = (0..<37).map { Float((($0 * 7919) % 101)) / 100 }
        let layout = WaveformLayout(values: values, style: style)
        var composer = WaveformFrameComposer(layout: layout, progress: 0.6)
        let rasterizer = WaveformRasterizer()
        #expect(composer.frame == rasterizer.render(layout, progress: 0.6))
        for progress in Self.progressions {
            composer.compose(progress: progress)
            #expect(composer.frame == rasterizer.render(layout, progress: progress), "progress \(progress)")
        }
    }

    @Test func progressIsClamped() {
        let layout = WaveformLayout(values: [1, 0.5], style: WaveformStyle(width: 20, height: 10))
        var composer = WaveformFrameComposer(layout: layout)
        composer.compose(progress: 5)
        #expect(composer.progress == 1)
        composer.compose(progress: -5)
        #expect(composer.progress == 0)
    }

    @Test func noBarsGiveTheBackground() {
        let style = WaveformStyle(width: 4, height: 3, backgroundColor: .black)
        var composer = WaveformFrameComposer(layout: WaveformLayout(values: [], style: style))
        composer.compose(progress: 0.5)
        #expect(composer.frame == RasterCanvas(width: 4, height: 3, filledWith: RasterPixel(.black)))
    }

    @Test func aFrameKeptByTheCallerDoesNotChangeWithTheNextCompose() {
        let layout = WaveformLayout(values: [0.2, 1, 0.6, 0.9], style: WaveformStyle(width: 40, height: 16))
        var composer = WaveformFrameComposer(layout: layout, progress: 0.3)
        let kept = composer.frame
        composer.compose(progress: 0.8)
        #expect(kept == WaveformRasterizer().render(layout, progress: 0.3))
        #expect(composer.frame == WaveformRasterizer().render(layout, progress: 0.8))
        #expect(kept != composer.frame)
    }
}
