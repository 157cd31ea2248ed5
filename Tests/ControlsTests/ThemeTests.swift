import Controls
import Foundation
import Testing

@Suite struct ThemeTests {
    @Test func defaults() {
        let theme = Theme()
        #expect(theme.controlEditorWidth == 140)
        #expect(theme.controlShowValueDuration == .milliseconds(1250))
        #expect(theme.controlChangeAnimationDuration == .milliseconds(350))
        #expect(theme.touchSensitivity == 2.0)
        #expect(theme.maxChangeRegionWidthPercentage == 0.1)
        #expect(theme.font == .callout)
        #expect(theme.toggleOnIndicatorSystemName == "circle.inset.filled")
        #expect(theme.toggleOffIndicatorSystemName == "circle")
        #expect(theme.controlTrackStrokeStyle == StrokeStyle(lineWidth: 10, lineCap: .round))
        #expect(theme.controlValueStrokeStyle == StrokeStyle(lineWidth: 10, lineCap: .round))
        #expect(theme.controlValueStrokeLineWidth == 10)
        #expect(theme.controlValueStrokeLineWidthHalf == 5)
        #expect(theme.controlTitleGap == 12)
        #expect(theme.controlIndicatorLength == 16)
        #expect(theme.controlIndicatorStartAngle == .degrees(40))
        #expect(theme.controlIndicatorEndAngle == .degrees(320))
        #expect(abs(theme.controlIndicatorStartAngleNormalized - 0.111111) < 1e-6)
        #expect(abs(theme.controlIndicatorEndAngleNormalized - 0.888888) < 1e-6)
    }

    @Test func settingTheStartLeavesTheEnd() {
        var theme = Theme()
        theme.controlIndicatorStartAngle = .degrees(90)
        #expect(abs(theme.controlIndicatorEndAngleNormalized - 0.888888) < 1e-6)
        #expect(theme.endTrim(for: 0) == 0.25)
        theme.controlIndicatorEndAngle = .degrees(-34)
        #expect(abs(theme.controlIndicatorEndAngleNormalized - 0.9055555) < 1e-6)
        #expect(abs(theme.controlIndicatorStartEndSpanRadians - -2.1642082724729685) < 1e-12)
    }

    @Test func endTrimFollowsTheNorm() {
        let theme = Theme()
        #expect(abs(theme.endTrim(for: 0) - 40.0 / 360) < 1e-12)
        #expect(abs(theme.endTrim(for: 0.5) - 0.5) < 1e-12)
        #expect(abs(theme.endTrim(for: 1) - 320.0 / 360) < 1e-12)
    }

    @Test func indicatorLengthIsNeverShorterThanHalfTheValueStroke() {
        var theme = Theme()
        theme.controlIndicatorLength = 2
        #expect(theme.controlIndicatorLength == 5)
        theme.controlValueStrokeStyle = StrokeStyle(lineWidth: 3)
        theme.controlIndicatorLength = 1
        #expect(theme.controlIndicatorLength == 1.5)
        theme.controlIndicatorLength = 30
        #expect(theme.controlIndicatorLength == 30)
    }

    @Test func lightDefaults() {
        let theme = Theme()
        #expect(theme.controlBackgroundColor.components8 == (199, 199, 201, 255))
        #expect(theme.controlForegroundColor.hexRGB == "#FF9500")
        #expect(theme.textColor.hexRGB == "#D97F00")
        #expect(theme.editorBackgroundColor.hexRGB == "#DDDDDF")
        #expect(theme.editorCancelButtonColor == theme.textColor)
        #expect(theme.editorOKButtonColor == theme.textColor)
    }

    @Test func darkDefaults() {
        let theme = Theme(colorScheme: .dark)
        #expect(theme.controlBackgroundColor.hexRGB == "#333333")
        #expect(theme.controlForegroundColor.hexRGB == "#FF9500")
        #expect(theme.textColor.hexRGB == "#D97F00")
        #expect(theme.editorBackgroundColor.hexRGB == "#2B2B2C")
    }

    @Test func colorByTag() {
        let theme = Theme()
        for tag in ColorTag.allCases {
            #expect(theme.color(tag: tag) == theme.taggedColor(tag, default: .white) || theme.assets == nil)
        }
        #expect(theme.color(tag: .controlForegroundColor) == .systemOrange)
        #expect(theme.taggedColor(.textColor, defaults: [.white, .black]) == .white)
        #expect(Theme(colorScheme: .dark).taggedColor(.textColor, defaults: [.white, .black]) == .black)
    }

    @Test func assetLookupUsesThePrefix() {
        let red = RGBAColor(hex: "#FF0000")!
        let blue = RGBAColor(hex: "#0000FF")!
        let catalog = ColorAssetCatalog(entries: [
            "VFO_controlBackgroundColor": .init(light: red, dark: blue),
            "textColor": .init(light: blue, dark: nil),
        ])
        let vfo = Theme(assets: catalog, prefix: "VFO")
        #expect(vfo.assetName(for: .controlBackgroundColor) == "VFO_controlBackgroundColor")
        #expect(vfo.controlBackgroundColor == red)
        #expect(Theme(assets: catalog, prefix: "VFO", colorScheme: .dark).controlBackgroundColor == blue)
        #expect(vfo.textColor == Theme().textColor)
        let bare = Theme(assets: catalog)
        #expect(bare.textColor == blue)
        #expect(bare.editorOKButtonColor == blue)
        #expect(Theme(assets: catalog, colorScheme: .dark).textColor == blue)
    }

    @Test func gradientsCanBeBuilt() {
        let theme = Theme()
        let foreground = theme.foregroundGradient(radius: 100)
        #expect(foreground.colors == [.black, theme.controlForegroundColor, .white])
        #expect(foreground.startRadius == 85)
        #expect(foreground.endRadius == 105)
        #expect(theme.backgroundGradient(radius: 100).colors == [.white, theme.controlBackgroundColor, .black])
    }
}
