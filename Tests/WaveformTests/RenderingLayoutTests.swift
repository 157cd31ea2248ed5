import Controls
import Testing
import Waveform

@Suite struct RenderingLayoutTests {
    @Test func barsFillTheWidthInEqualSlotsWithHalfAGapAtEachEnd() {
        let style = WaveformStyle(width: 95, height: 40, barGap: 2, barStyle: .square)
        let layout = WaveformLayout(values: Array(repeating: 0.5, count: 10), style: style)
        #expect(layout.bars.count == 10)
        #expect(layout.bars[0] == WaveformBar(x: 1, y: 10, width: 7.5, height: 20, cornerRadius: 0))
        #expect(layout.bars[9].x == 9 * 9.5 + 1)
        #expect(layout.bars[9].maxX == 94)
    }

    @Test func barsAreCentredVerticallyAndSilenceKeepsTheMinimumHeight() {
        let style = WaveformStyle(width: 30, height: 40, barGap: 0, minimumBarHeight: 2)
        let layout = WaveformLayout(values: [0, 1, 0.25, .nan, 7, -1], style: style)
        #expect(layout.bars.map(\.height) == [2, 40, 10, 2, 40, 2])
        #expect(layout.bars.map(\.y) == [19, 0, 15, 19, 0, 19])
    }

    @Test func roundedEndsUseHalfTheNarrowerSide() {
        let style = WaveformStyle(width: 20, height: 40, barGap: 2, barStyle: .rounded)
        let layout = WaveformLayout(values: [1, 0], style: style)
        #expect(layout.bars.map(\.cornerRadius) == [4, 1])
    }

    @Test func aGapWiderThanHalfASlotShrinksToHalfASlot() {
        let style = WaveformStyle(width: 10, height: 10, barGap: 8)
        let layout = WaveformLayout(values: [1, 1], style: style)
        #expect(layout.bars.map(\.width) == [2.5, 2.5])
        #expect(layout.bars.map(\.x) == [1.25, 6.25])
    }

    @Test(arguments: [(800, 3.0, 2.0, 160), (800, 8.0, 2.0, 80), (3840, 1.0, 0.0, 3840), (5, 4.0, 4.0, 1)])
    func fittingBarCountDividesTheWidthByBarAndGap(width: Int, bar: Double, gap: Double, count: Int) {
        #expect(WaveformStyle(width: width, height: 10, barWidth: bar, barGap: gap).fittingBarCount == count)
    }

    @Test(arguments: [(0.25, 25.0), (-1, 0), (2, 100), (.nan, 0)])
    func splitFallsAtProgressTimesWidth(progress: Double, x: Double) {
        let layout = WaveformLayout(values: [1], style: WaveformStyle(width: 100, height: 10))
        #expect(layout.splitX(progress: progress) == x)
    }

    @Test func coloursComeFromTheTheme() {
        let light = WaveformStyle(width: 1, height: 1, theme: Theme(colorScheme: .light))
        let dark = WaveformStyle(width: 1, height: 1, theme: Theme(colorScheme: .dark))
        #expect(light.playedColor == .systemOrange)
        #expect(light.unplayedColor == RGBAColor.systemGray.mixed(with: .white, by: 0.5))
        #expect(dark.unplayedColor == RGBAColor.black.mixed(with: .white, by: 0.2))
        #expect(light.backgroundColor == nil)
    }

    @Test func extremeValuesAndSizesStayInsideThePicture() {
        let values: [Float] = [.infinity, -.infinity, .nan, 0.5] + Array(repeating: 1, count: 996)
        for (width, height) in [(1, 1), (3, 2), (1000, 1)] {
            for barStyle in WaveformBarStyle.allCases {
                let style = WaveformStyle(width: width, height: height, barGap: 2, barStyle: barStyle)
                let layout = WaveformLayout(values: values, style: style)
                #expect(layout.bars.allSatisfy { $0.x >= 0 && $0.maxX <= Double(width) + 1e-9 })
                #expect(layout.bars.allSatisfy { $0.y >= 0 && $0.maxY <= Double(height) })
                let canvas = WaveformRasterizer().render(layout, progress: 0.5)
                #expect(canvas.bytes.count == width * height * 4)
                var composer = WaveformFrameComposer(layout: layout, progress: 1)
                composer.compose(progress: 0.5)
                #expect(composer.frame == canvas)
            }
        }
    }
}
