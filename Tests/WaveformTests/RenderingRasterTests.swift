import Controls
import Testing
import Waveform

/// Pixels at known points: ten bars of 0.5 in 95 × 40, slots of 9.5 pixels, bars 7.5 wide from
/// x = 1 + 9.5 i, rows 10 to 30; played red, unplayed blue.
@Suite struct RenderingRasterTests {
    static let red = RGBAColor(red8: 255, green: 0, blue: 0)
    static let blue = RGBAColor(red8: 0, green: 0, blue: 255)

    static func style(_ barStyle: WaveformBarStyle, height: Int = 40, background: RGBAColor? = nil) -> WaveformStyle {
        var style = WaveformStyle(width: 95, height: height, barGap: 2, barStyle: barStyle, backgroundColor: background)
        style.playedColor = red
        style.unplayedColor = blue
        return style
    }

    static func render(_ style: WaveformStyle, progress: Double = 0.45) -> RasterCanvas {
        WaveformRasterizer().render(
            WaveformLayout(values: Array(repeating: 0.5, count: 10), style: style), progress: progress)
    }

    static func bytes(_ pixel: RasterPixel) -> [UInt8] {
        [pixel.red, pixel.green, pixel.blue, pixel.alpha]
    }

    @Test(arguments: WaveformBarStyle.allCases)
    func coloursInsideBarsAndInGaps(barStyle: WaveformBarStyle) {
        let canvas = Self.render(Self.style(barStyle))
        #expect(Self.bytes(canvas[4, 20]) == [255, 0, 0, 255], "inside a played bar")
        #expect(Self.bytes(canvas[60, 20]) == [0, 0, 255, 255], "inside an unplayed bar")
        #expect(Self.bytes(canvas[9, 20]) == [0, 0, 0, 0], "in a gap")
        #expect(Self.bytes(canvas[4, 5]) == [0, 0, 0, 0], "above a bar")
        #expect(Self.bytes(canvas[4, 35]) == [0, 0, 0, 0], "below a bar")
    }

    @Test func verticalEdgesHalfwayThroughAPixelCoverHalfOfIt() {
        let canvas = Self.render(Self.style(.square))
        #expect(Self.bytes(canvas[8, 20]) == [255, 0, 0, 128], "right edge of bar 0 at x = 8.5")
        #expect(Self.bytes(canvas[10, 20]) == [255, 0, 0, 128], "left edge of bar 1 at x = 10.5")
        #expect(Self.bytes(canvas[94, 20]) == [0, 0, 0, 0], "last bar ends at x = 94")
    }

    @Test func aHorizontalEdgeAQuarterIntoAPixelCoversThreeQuarters() {
        let canvas = Self.render(Self.style(.square, height: 41))
        #expect(Self.bytes(canvas[4, 10]) == [255, 0, 0, 191], "bar from y = 10.25")
        #expect(Self.bytes(canvas[4, 30]) == [255, 0, 0, 191], "bar to y = 30.75")
        #expect(Self.bytes(canvas[4, 11]) == [255, 0, 0, 255])
    }

    @Test func theProgressPointMixesTheColumnItCrosses() {
        let canvas = Self.render(Self.style(.square))
        #expect(Self.bytes(canvas[41, 20]) == [255, 0, 0, 255])
        #expect(Self.bytes(canvas[42, 20]) == [191, 0, 64, 255], "x = 42.75: three quarters played")
        #expect(Self.bytes(canvas[43, 20]) == [0, 0, 255, 255])
    }

    @Test func anOpaqueBackgroundShowsInGapsAndUnderPartialPixels() {
        let canvas = Self.render(Self.style(.square, background: .white))
        #expect(Self.bytes(canvas[9, 20]) == [255, 255, 255, 255])
        #expect(Self.bytes(canvas[8, 20]) == [255, 128, 128, 255])
        #expect(Self.bytes(canvas[4, 20]) == [255, 0, 0, 255])
    }

    @Test func roundedCornersAreAntiAliasedAndSquareOnesAreNot() {
        let rounded = Self.render(Self.style(.rounded))
        let square = Self.render(Self.style(.square))
        #expect(Self.bytes(square[1, 10]) == [255, 0, 0, 255])
        let corner = rounded[2, 10]
        #expect(corner.alpha > 0 && corner.alpha < 128, "the rounded corner cuts most of the corner pixel")
        #expect(Self.bytes(rounded[4, 20]) == [255, 0, 0, 255], "straight middle untouched")
    }

    /// The area of a pixel by the midpoint rule on 100,000 vertical strips, each strip's overlap
    /// with the rounded bar taken exactly: independent of the closed form, within 1e-7.
    static func referenceCoverage(_ bar: WaveformBar, column: Int, row: Int) -> Double {
        let strips = 100_000
        let r = bar.cornerRadius
        var sum = 0.0
        for strip in 0..<strips {
            let x = Double(column) + (Double(strip) + 0.5) / Double(strips)
            guard x > bar.x, x < bar.maxX else { continue }
            let cx = min(max(x, bar.x + r), bar.maxX - r)
            let depth = r - (max(0, r * r - (x - cx) * (x - cx))).squareRoot()
            let overlap = min(Double(row + 1), bar.maxY - depth) - max(Double(row), bar.y + depth)
            if overlap > 0 { sum += overlap }
        }
        return sum / Double(strips)
    }

    static let bars = [
        WaveformBar(x: 1, y: 10, width: 7.5, height: 20, cornerRadius: 3.75),
        WaveformBar(x: 0.3, y: 2.7, width: 1, height: 30, cornerRadius: 0.5),
        WaveformBar(x: 0, y: 0, width: 1, height: 1, cornerRadius: 0.5),
        WaveformBar(x: 2.2, y: 5.1, width: 3.3, height: 2, cornerRadius: 1),
        WaveformBar(x: 0.25, y: 0.5, width: 2.5, height: 2.5, cornerRadius: 1.25),
    ]

    @Test(arguments: bars)
    func coverageIsTheAreaEverywhereAroundABar(bar: WaveformBar) {
        for column in Int(bar.x) - 1...Int(bar.maxX) + 1 {
            for row in Int(bar.y) - 1...Int(bar.maxY) + 1 {
                let reference = Self.referenceCoverage(bar, column: column, row: row)
                #expect(abs(bar.coverage(column: column, row: row) - reference) < 1e-6, "pixel \(column), \(row)")
            }
        }
    }

    @Test func aCircleOfDiameterOneCoversAQuarterTurnOfItsPixel() {
        let dot = WaveformBar(x: 0, y: 0, width: 1, height: 1, cornerRadius: 0.5)
        #expect(abs(dot.coverage(column: 0, row: 0) - Double.pi / 4) < 1e-12)
    }

    @Test(arguments: [(4, 20, 1.0), (8, 20, 0.5), (9, 20, 0.0), (0, 20, 0.0), (4, 9, 0.0)])
    func straightCoverageIsExact(column: Int, row: Int, expected: Double) {
        let bar = WaveformBar(x: 1, y: 10, width: 7.5, height: 20, cornerRadius: 3.75)
        #expect(bar.coverage(column: column, row: row) == expected)
    }
}
