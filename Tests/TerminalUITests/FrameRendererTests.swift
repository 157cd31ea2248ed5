import Testing

@testable import TerminalUI

@Suite struct FrameRendererTests {
    private let red = TerminalColor(red: 255, green: 0, blue: 0)

    private func text(_ bytes: [UInt8]?) -> String {
        bytes.map { String(decoding: $0, as: UTF8.self) } ?? "<nothing>"
    }

    @Test func theFirstFrameClearsAndDrawsEveryCellInsideSynchronizedOutput() {
        var renderer = FrameRenderer(colorMode: .trueColor)
        var grid = CellGrid(width: 3, height: 1)
        grid.write("ab", x: 0, y: 0, style: Cell(foreground: red))
        #expect(
            text(renderer.render(grid))
                == "\u{1B}[?2026h\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0;38;2;255;0;0mab\u{1B}[0m \u{1B}[0m\u{1B}[?2026l")
    }

    @Test func anUnchangedFrameWritesNothing() {
        var renderer = FrameRenderer(colorMode: .palette256)
        let grid = CellGrid(width: 10, height: 4)
        #expect(renderer.render(grid) != nil)
        #expect(renderer.render(grid) == nil)
    }

    @Test func onlyTheChangedCellsAreWritten() {
        var renderer = FrameRenderer(colorMode: .palette256)
        var grid = CellGrid(width: 20, height: 5)
        _ = renderer.render(grid)
        grid[7, 3] = Cell("x", foreground: red)
        grid[8, 3] = Cell("y", foreground: red)
        grid[2, 0] = Cell("z")
        #expect(
            text(renderer.render(grid))
                == "\u{1B}[?2026h\u{1B}[1;3H\u{1B}[0mz\u{1B}[4;8H\u{1B}[0;38;5;196mxy\u{1B}[0m\u{1B}[?2026l")
    }

    @Test func aSizeChangeRedrawsEverything() {
        var renderer = FrameRenderer(colorMode: .none)
        _ = renderer.render(CellGrid(width: 4, height: 2))
        let bytes = text(renderer.render(CellGrid(width: 5, height: 2)))
        #expect(bytes.contains("\u{1B}[2J"))
        #expect(bytes.filter { $0 == " " }.count == 10)
    }

    @Test func withoutColoursOnlyAttributesAreWritten() {
        var renderer = FrameRenderer(colorMode: .none)
        var grid = CellGrid(width: 1, height: 1)
        grid[0, 0] = Cell("f", foreground: red, background: red, reverse: true)
        #expect(text(renderer.render(grid)).contains("\u{1B}[0;7mf"))
    }

    @Test func aDiffIsSmallerThanAFullRedraw() {
        var renderer = FrameRenderer(colorMode: .trueColor)
        var grid = CellGrid(width: 200, height: 60, fill: Cell("·", foreground: red))
        _ = renderer.render(grid)
        grid.write("changed", x: 50, y: 30)
        let diff = renderer.render(grid) ?? []
        #expect(diff.count < 100)
        #expect(renderer.renderFull(grid).count > 200 * 60)
    }

    @Test(arguments: [
        (TerminalColor(red: 0, green: 0, blue: 0), 16), (TerminalColor(red: 255, green: 255, blue: 255), 231),
        (TerminalColor(red: 255, green: 0, blue: 0), 196), (TerminalColor(red: 128, green: 128, blue: 128), 244),
        (TerminalColor(red: 255, green: 149, blue: 0), 208),
    ])
    func nearestOfThe256(color: TerminalColor, index: Int) {
        #expect(color.palette256Index == index)
    }

    @Test func colourModeFollowsTheEnvironment() {
        #expect(ColorMode(environment: ["COLORTERM": "truecolor"]) == .trueColor)
        #expect(ColorMode(environment: ["COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorMode(environment: [:]) == .palette256)
        #expect(ColorMode(environment: ["COLORTERM": "truecolor", "NO_COLOR": ""]) == .none)
    }
}
