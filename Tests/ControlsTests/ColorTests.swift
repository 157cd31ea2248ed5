import Controls
import Testing

@Suite struct ColorTests {
    @Test func eightBitChannels() {
        let color = RGBAColor(hex: "#80007F")!
        // The original's vectors come from Float division; channels here are Doubles.
        #expect(abs(color.red - 0.5019608) < 1e-7)
        #expect(abs(color.blue - 0.49803925) < 1e-7)
        #expect(color.green == 0)
        #expect(color.alpha == 1)
    }

    @Test(arguments: [
        ("#FFF", RGBAColor?.some(RGBAColor(red: 1, green: 1, blue: 1))),
        ("  #123", RGBAColor(red8: 0x11, green: 0x22, blue: 0x33)),
        ("0xFF9500", RGBAColor(red8: 255, green: 149, blue: 0)),
        ("FF9500", RGBAColor(red8: 255, green: 149, blue: 0)),
        ("#80FF0000", RGBAColor(red8: 255, green: 0, blue: 0, alpha: 128)),
        ("", nil), ("#", nil), ("#12", nil), ("#1234", nil), ("#12345", nil), ("#1234567", nil), ("#GGGGGG", nil),
        ("##FFF", nil), ("#0xFFF", nil),
    ])
    func hexParsing(text: String, expected: RGBAColor?) {
        #expect(RGBAColor(hex: text) == expected)
    }

    @Test func mixingIsLinearAndKeepsTheFirstAlpha() {
        let half = RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5).mixed(
            with: RGBAColor(red: 0, green: 0, blue: 1), by: 0.25)
        #expect(half == RGBAColor(red: 0.75, green: 0, blue: 0.25, alpha: 0.5))
        #expect(RGBAColor.black.mixed(with: .white, by: 0.2).hexRGB == "#333333")
        #expect(RGBAColor.systemOrange.mixed(with: .black, by: 0.15).hexRGB == "#D97F00")
        #expect(RGBAColor.systemGray.mixed(with: .white, by: 0.7).hexRGB == "#DDDDDF")
        #expect(RGBAColor.systemGray.mixed(with: .black, by: 0.7).hexRGB == "#2B2B2C")
    }
}
