import Controls
import Foundation
import Parameters
import Testing
import Waveform

@testable import TerminalUI

@Suite struct SurfacePainterTests {
    let tree: ParameterTree
    let clock = TestClock()

    init() throws {
        tree = try SurfaceFixtures.tree()
    }

    private func paint(
        _ controller: SurfaceController, colorMode: ColorMode = .trueColor, waveform: ScrubberFeature.State? = nil
    ) -> CellGrid {
        var scene = controller.scene(status: SurfaceStatus(name: "studio", peerCount: 2))
        scene.waveform = waveform
        return SurfacePainter(theme: Theme(colorScheme: .dark), colorMode: colorMode).paint(scene)
    }

    @Test func knobsShowTheirTitlesTheFocusedValueAndTheStatusLine() {
        let controller = SurfaceFixtures.controller(tree, clock: clock)
        let grid = paint(controller)
        #expect(grid.text(row: 3).contains(" Volume "))
        #expect(grid[2, 3].reverse)
        #expect(grid.text(row: 4).trimmingCharacters(in: .whitespaces) == "0")
        #expect(grid.text(row: 6).hasPrefix("  Mix ─"))
        #expect(grid.text(row: 10).contains(" Gain "))
        #expect(!grid[5, 10].reverse)
        #expect(grid.text(row: 8).contains("○ Off"))
        #expect(grid.text(row: 23).hasPrefix(" studio · 2 peers"))
        #expect(grid.text(row: 23).hasSuffix("q quit "))
    }

    @Test func theArcFillsFromTheMinimumOrForABipolarKnobFromTheCentre() {
        let empty = KnobArc(norm: 0.5, bipolar: true)
        let half = KnobArc(norm: 0.5, bipolar: false)
        let full = KnobArc(norm: 1, bipolar: false)
        #expect(!empty.dots.contains { $0.isValue })
        #expect(half.dots.contains { $0.isValue } && half.dots.contains { !$0.isValue })
        #expect(full.dots.allSatisfy { $0.isValue })
        // Half way, the value arc covers the left side (clockwise from 6 o'clock) up to the top.
        #expect(half.dots.filter(\.isValue).allSatisfy { $0.column < KnobArc.columns / 2 + 1 })
        let right = KnobArc(norm: 0.9, bipolar: true)
        #expect(right.dots.filter(\.isValue).allSatisfy { $0.column >= KnobArc.columns / 2 - 1 })
    }

    @Test func theArcIsDrawnInTheThemeColours() {
        tree.parameter(withAddress: 1)!.setValue(100)
        let controller = SurfaceFixtures.controller(tree, clock: clock)
        let grid = paint(controller)
        let palette = SurfacePalette(theme: Theme(colorScheme: .dark))
        let arcCells = (0..<3).flatMap { row in (1..<13).map { grid[$0, row] } }.filter { $0.character != " " }
        #expect(!arcCells.isEmpty)
        #expect(arcCells.allSatisfy { $0.foreground == palette.foreground })
        #expect(arcCells.allSatisfy { ("\u{2801}"..."\u{28FF}").contains(String($0.character)) })
    }

    @Test func withoutColoursTheFocusIsReverseVideoAndTheTrackIsSparse() {
        let controller = SurfaceFixtures.controller(tree, clock: clock)
        let grid = paint(controller, colorMode: .none)
        #expect(grid[2, 3].reverse)
        let colour = paint(controller, colorMode: .trueColor)
        let dots = { (grid: CellGrid) in (0..<3).flatMap { row in (1..<13).map { grid[$0, row].character } } }
        #expect(dots(grid) != dots(colour))
    }

    @Test func aTooSmallTerminalSaysSo() {
        let controller = SurfaceFixtures.controller(tree, clock: clock, width: 12, height: 5)
        let grid = paint(controller)
        let rows = (0..<5).map { grid.text(row: $0).trimmingCharacters(in: .whitespaces) }
        #expect(rows.contains("too small:"))
        #expect(rows.contains("14×8"))
    }

    @Test func theWaveformRowHasBarsAndAHalfBlockAtThePlayhead() {
        let controller = SurfaceFixtures.controller(tree, clock: clock)
        let waveform = ScrubberFeature.State(bars: [0.1, 0.5, 1, 0.5, 0.1, 0.5, 1, 0.5], progress: 0.51, width: 78)
        var scene = controller.scene(status: SurfaceStatus(name: "x"))
        scene.waveform = waveform
        scene.layout = SurfaceLayout(
            sections: SurfaceSection.sections(of: tree), width: 80, height: 24, hasWaveform: true)
        let grid = SurfacePainter(theme: Theme(colorScheme: .dark), colorMode: .trueColor).paint(scene)
        let row = grid.text(row: 0)
        #expect(row.contains("█"))
        #expect(row.contains("▁"))
        #expect(row.filter { $0 == "▌" }.count == 1)
        let palette = SurfacePalette(theme: Theme(colorScheme: .dark))
        #expect(grid[1, 0].foreground == palette.foreground)
        #expect(grid[78, 0].foreground == palette.track)
    }

    @Test func theEditorIsDrawnOverTheSurface() {
        let controller = SurfaceFixtures.controller(tree, clock: clock)
        controller.handle(.key(.enter))
        let grid = paint(controller)
        #expect((0..<23).contains { grid.text(row: $0).contains("Enter OK · Esc Cancel") })
        #expect((0..<23).contains { grid.text(row: $0).contains("0▏") })
    }
}
