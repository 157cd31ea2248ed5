import Controls
import Testing

@Suite struct KnobDragScalingTests {
    @Test func fullSweepOfAHundredPointKnobNeedsTwoHundredPoints() {
        let scaling = KnobDragScaling(diameter: 100)
        #expect(scaling.fullSweepTravel == 200)
        #expect(scaling.dragScaling == 1.0 / 200)
        let top = scaling.norm(after: 0, from: ControlPoint(x: 50, y: 200), to: ControlPoint(x: 50, y: 0))
        #expect(top == 1)
        let half = scaling.norm(after: 0, from: ControlPoint(x: 50, y: 100), to: ControlPoint(x: 50, y: 0))
        #expect(half == 0.5)
    }

    @Test func deadBandIsFourPointsUnlessTheRadiusExceedsEighty() {
        #expect(KnobDragScaling(diameter: 100).halfWidth == 4)
        #expect(KnobDragScaling(diameter: 160).halfWidth == 4)
        #expect(KnobDragScaling(diameter: 200).halfWidth == 5)
        let scaling = KnobDragScaling(diameter: 100)
        #expect(scaling.scale(atX: 50 + 3.9) == 1)
        #expect(scaling.scale(atX: 50 - 3.9) == 1)
    }

    @Test(arguments: [(20.0, 0.68), (49.0, 0.10), (60.0, 0.10), (4.0, 1.0)])
    func scaleFallsOffAwayFromTheCentreLine(dX: Double, expected: Double) {
        let scaling = KnobDragScaling(diameter: 100)
        #expect(abs(scaling.scale(atX: 50 + dX) - expected) < 1e-12)
        #expect(abs(scaling.scale(atX: 50 - dX) - expected) < 1e-12)
    }

    @Test func finerResolutionAtTheEdge() {
        let scaling = KnobDragScaling(diameter: 100)
        let centre = scaling.norm(after: 0.5, from: ControlPoint(x: 50, y: 50), to: ControlPoint(x: 50, y: 30))
        let edge = scaling.norm(after: 0.5, from: ControlPoint(x: 99, y: 50), to: ControlPoint(x: 99, y: 30))
        #expect(abs((centre - 0.5) / (edge - 0.5) - 10) < 1e-9)
    }

    @Test func legacySensitivityExamples() {
        let diameter = 100.0
        let travel = 0.4 * diameter
        let sensitive = KnobDragScaling(width: diameter, height: diameter, touchSensitivity: 1)
        let start = ControlPoint(x: 50, y: 80)
        let end = ControlPoint(x: 50, y: 80 - travel)
        #expect(abs(sensitive.norm(after: 0, from: start, to: end) - 0.4) < 1e-12)
        #expect(abs(KnobDragScaling(diameter: diameter).norm(after: 0, from: start, to: end) - 0.2) < 1e-12)
    }

    @Test func movingDownLowersAndTheResultIsClamped() {
        let scaling = KnobDragScaling(diameter: 100)
        #expect(scaling.norm(after: 0.5, from: ControlPoint(x: 50, y: 0), to: ControlPoint(x: 50, y: 20)) == 0.4)
        #expect(scaling.norm(after: 0.05, from: ControlPoint(x: 50, y: 0), to: ControlPoint(x: 50, y: 100)) == 0)
        #expect(scaling.norm(after: 0.95, from: ControlPoint(x: 50, y: 100), to: ControlPoint(x: 50, y: 0)) == 1)
    }

    @Test func reversingPastAnEndActsAtOnce() {
        var tracker = KnobDragTracker(scaling: KnobDragScaling(diameter: 100))
        var norm = 0.9
        _ = tracker.moved(to: ControlPoint(x: 50, y: 100), norm: norm)
        if case .dragChanged(let next) = tracker.moved(to: ControlPoint(x: 50, y: 0), norm: norm) { norm = next }
        #expect(norm == 1)
        if case .dragChanged(let next) = tracker.moved(to: ControlPoint(x: 50, y: 10), norm: norm) { norm = next }
        #expect(norm == 0.95)
    }

    @Test func terminalCellsScaleTheHorizontalDistance() {
        // A knob 10 cells wide and 5 rows tall: column 10 is the edge, like x = 2r on a square knob.
        let cells = KnobDragScaling(width: 10, height: 5)
        #expect(cells.radius == 2.5)
        #expect(cells.fullSweepTravel == 10)
        #expect(cells.scale(atX: 5) == 1)
        #expect(cells.scale(atX: 10) == KnobDragScaling(width: 5, height: 5).scale(atX: 5))
    }

    @Test func themeSuppliesTheSensitivity() {
        var theme = Theme()
        theme.touchSensitivity = 1
        #expect(KnobDragScaling(diameter: 100, theme: theme).fullSweepTravel == 100)
    }
}
