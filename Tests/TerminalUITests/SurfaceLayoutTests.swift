import Testing

@testable import TerminalUI

@Suite struct SurfaceLayoutTests {
    @Test func sectionsFollowTheTreeWithLooseParametersFirstAndUntitled() throws {
        let sections = SurfaceSection.sections(of: try SurfaceFixtures.tree())
        #expect(sections.map(\.title) == [nil, "Mix"])
        #expect(sections[0].items.map(\.id) == [1])
        #expect(sections[1].items.map(\.id) == [2, 3, 4])
        #expect(sections[1].items.map(\.kind) == [.knob, .knob, .toggle])
    }

    @Test func tilesFlowInRowsAndWrapAtTheRightEdge() throws {
        let sections = SurfaceSection.sections(of: try SurfaceFixtures.tree())
        let wide = SurfaceLayout(sections: sections, width: 80, height: 24, hasWaveform: false)
        #expect(wide.controls.map { [$0.x, $0.y] } == [[1, 0], [1, 7], [13, 7], [25, 7]])
        #expect(wide.titles == [SurfaceLayout.Title(text: "Mix", y: 6)])
        #expect(wide.contentHeight == 13)
        let narrow = SurfaceLayout(sections: sections, width: 26, height: 24, hasWaveform: true)
        #expect(narrow.waveformRow == 0)
        #expect(narrow.controls.map { [$0.x, $0.y] } == [[1, 2], [1, 9], [13, 9], [1, 14]])
    }

    @Test func aTerminalSmallerThanOneControlIsTooSmall() throws {
        let sections = SurfaceSection.sections(of: try SurfaceFixtures.tree())
        #expect(SurfaceLayout(sections: sections, width: 13, height: 24, hasWaveform: false).isTooSmall)
        #expect(SurfaceLayout(sections: sections, width: 80, height: 7, hasWaveform: false).isTooSmall)
        #expect(!SurfaceLayout(sections: sections, width: 14, height: 8, hasWaveform: false).isTooSmall)
    }

    @Test func scrollingKeepsTheFocusInView() throws {
        let sections = SurfaceSection.sections(of: try SurfaceFixtures.tree())
        let layout = SurfaceLayout(sections: sections, width: 80, height: 10, hasWaveform: false)
        #expect(layout.scroll(keeping: 3, from: 0) == 3)
        #expect(layout.scroll(keeping: 0, from: 3) == 0)
        #expect(layout.control(atColumn: 26, row: 5, scroll: 3) == 3)
    }
}
