import Controls
import Testing

@Suite struct KnobGeometryTests {
    private func close(_ a: ControlPoint, _ b: ControlPoint) -> Bool {
        abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9
    }

    @Test func arcsSitOnTheCircleInsetByHalfTheValueStroke() {
        let geometry = KnobGeometry(diameter: 220, norm: 0.5, theme: Theme())
        #expect(geometry.center == ControlPoint(x: 110, y: 110))
        #expect(geometry.track.radius == 105)
        #expect(geometry.track.startAngle == .degrees(40))
        #expect(geometry.track.endAngle == .degrees(320))
        #expect(geometry.value?.endAngle == .degrees(180))
    }

    @Test func angleZeroIsAtSixOClockAndAnglesGrowClockwise() {
        let center = ControlPoint(x: 0, y: 0)
        #expect(close(KnobGeometry.point(center: center, radius: 1, angle: .degrees(0)), ControlPoint(x: 0, y: 1)))
        #expect(close(KnobGeometry.point(center: center, radius: 1, angle: .degrees(90)), ControlPoint(x: -1, y: 0)))
        #expect(close(KnobGeometry.point(center: center, radius: 1, angle: .degrees(180)), ControlPoint(x: 0, y: -1)))
    }

    @Test func indicatorAtMinimumIsLowerLeftAndAtMiddleIsTwelveOClock() {
        let minimum = KnobGeometry(diameter: 220, norm: 0, theme: Theme())
        #expect(minimum.value == nil)
        #expect(minimum.indicator.from.x < 110 && minimum.indicator.from.y > 110)
        let middle = KnobGeometry(diameter: 220, norm: 0.5, theme: Theme())
        #expect(close(middle.indicator.from, ControlPoint(x: 110, y: 5)))
        #expect(close(middle.indicator.to, ControlPoint(x: 110, y: 16)))
        let maximum = KnobGeometry(diameter: 220, norm: 1, theme: Theme())
        #expect(maximum.indicator.from.x > 110 && maximum.indicator.from.y > 110)
    }

    @Test func indicatorIsElevenPointsLongByDefault() {
        let geometry = KnobGeometry(diameter: 100, norm: 0.3, theme: Theme())
        let dx = geometry.indicator.from.x - geometry.indicator.to.x
        let dy = geometry.indicator.from.y - geometry.indicator.to.y
        #expect(abs((dx * dx + dy * dy).squareRoot() - 11) < 1e-9)
    }

    @Test func indicatorNeverReachesPastTheCentre() {
        var theme = Theme()
        theme.controlIndicatorLength = 500
        let geometry = KnobGeometry(diameter: 100, norm: 0.3, theme: theme)
        #expect(close(geometry.indicator.to, geometry.center))
    }

    @Test func indicatorUsesTheThemeAngles() {
        var theme = Theme()
        theme.controlIndicatorStartAngle = .degrees(90)
        theme.controlIndicatorEndAngle = .degrees(270)
        let minimum = KnobGeometry(diameter: 100, norm: 0, theme: theme)
        // 90° is 9 o'clock: the indicator lies on the horizontal line through the centre, left.
        #expect(close(minimum.indicator.from, ControlPoint(x: 5, y: 50)))
        let maximum = KnobGeometry(diameter: 100, norm: 1, theme: theme)
        #expect(close(maximum.indicator.from, ControlPoint(x: 95, y: 50)))
        let middle = KnobGeometry(diameter: 100, norm: 0.5, theme: theme)
        #expect(close(middle.indicator.from, ControlPoint(x: 50, y: 5)))
    }

    @Test func originOffsetsEverything() {
        let moved = KnobGeometry(diameter: 100, norm: 0.5, theme: Theme(), origin: ControlPoint(x: 10, y: 20))
        #expect(moved.center == ControlPoint(x: 60, y: 70))
        #expect(close(moved.indicator.from, ControlPoint(x: 60, y: 25)))
    }
}
