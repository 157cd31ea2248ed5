import ControlsTesting
import Testing
import Waveform

@Suite struct ScrubberFeatureTests {
    static let bars: [Float] = [0.2, 0.4, 0.6, 0.8, 1, 0.8, 0.6, 0.4, 0.2, 0]

    func makeStore(progress: Double = 0, width: Double = 400) -> TestStore<ScrubberFeature> {
        TestStore(
            initialState: ScrubberFeature.State(bars: Self.bars, progress: progress, width: width),
            reducer: ScrubberFeature())
    }

    @Test func dragMapsThePointerOverTheRealWidthAndSeeksOnceAtTheEnd() async {
        let store = makeStore()
        await store.send(.dragStarted(x: 100)) {
            $0.isDragging = true
            $0.progress = 0.25
        }
        await store.send(.dragMoved(x: 300)) { $0.progress = 0.75 }
        await store.receive(.delegate(.dragCrossedBar(7)))
        await store.send(.dragMoved(x: 310)) { $0.progress = 0.775 }
        await store.send(.dragEnded(x: 320)) {
            $0.isDragging = false
            $0.progress = 0.8
            $0.playbackProgress = 0.8
        }
        await store.receive(.delegate(.seekRequested(0.8)))
    }

    @Test func theSeedsThreeHundredPointsAreNotAssumed() async {
        let store = makeStore(width: 1200)
        await store.send(.dragStarted(x: 300)) {
            $0.isDragging = true
            $0.progress = 0.25
        }
        await store.send(.laidOut(width: 600)) { $0.width = 600 }
        await store.send(.dragMoved(x: 300)) { $0.progress = 0.5 }
        await store.receive(.delegate(.dragCrossedBar(5)))
        await store.send(.dragCancelled) {
            $0.isDragging = false
            $0.progress = 0
        }
    }

    @Test(arguments: [(-50.0, 0.0), (0.0, 0.0), (400.0, 1.0), (1e9, 1.0), (-Double.infinity, 0.0)])
    func pointerOutsideTheScrubberIsClamped(x: Double, progress: Double) async {
        let store = makeStore(progress: 0.5)
        await store.send(.dragStarted(x: x)) {
            $0.isDragging = true
            $0.progress = progress
        }
        await store.send(.dragEnded(x: x)) {
            $0.isDragging = false
            $0.playbackProgress = progress
        }
        await store.receive(.delegate(.seekRequested(progress)))
    }

    @Test func playbackDoesNotFightTheDragAndACancelledDragShowsPlaybackAgain() async {
        let store = makeStore(progress: 0.1)
        await store.send(.dragStarted(x: 200)) {
            $0.isDragging = true
            $0.progress = 0.5
        }
        await store.send(.playbackProgressed(0.11)) { $0.playbackProgress = 0.11 }
        await store.send(.playbackProgressed(0.12)) { $0.playbackProgress = 0.12 }
        await store.send(.dragCancelled) {
            $0.isDragging = false
            $0.progress = 0.12
        }
        await store.send(.playbackProgressed(0.13)) {
            $0.playbackProgress = 0.13
            $0.progress = 0.13
        }
    }

    @Test func playbackAfterADragEndsMovesThePlayheadAgain() async {
        let store = makeStore()
        await store.send(.dragStarted(x: 40)) {
            $0.isDragging = true
            $0.progress = 0.1
        }
        await store.send(.dragEnded(x: 40)) {
            $0.isDragging = false
            $0.playbackProgress = 0.1
        }
        await store.receive(.delegate(.seekRequested(0.1)))
        await store.send(.playbackProgressed(0.1001)) {
            $0.playbackProgress = 0.1001
            $0.progress = 0.1001
        }
    }

    @Test func aTapSeeks() async {
        let store = makeStore()
        await store.send(.tapped(x: 100)) {
            $0.progress = 0.25
            $0.playbackProgress = 0.25
        }
        await store.receive(.delegate(.seekRequested(0.25)))
    }

    @Test func beforeLayoutPointerActionsDoNothing() async {
        let store = makeStore(width: 0)
        await store.send(.dragStarted(x: 100))
        await store.send(.dragMoved(x: 100))
        await store.send(.dragEnded(x: 100))
        await store.send(.tapped(x: 100))
        await store.send(.laidOut(width: 200)) { $0.width = 200 }
        await store.send(.tapped(x: 100)) {
            $0.progress = 0.5
            $0.playbackProgress = 0.5
        }
        await store.receive(.delegate(.seekRequested(0.5)))
    }

    @Test func movesAndEndsWithoutAStartAreIgnored() async {
        let store = makeStore()
        await store.send(.dragMoved(x: 100))
        await store.send(.dragEnded(x: 100))
        await store.send(.dragCancelled)
    }

    @Test func playbackValuesAreClampedAndNaNIgnored() async {
        let store = makeStore()
        await store.send(.playbackProgressed(1.5)) {
            $0.playbackProgress = 1
            $0.progress = 1
        }
        await store.send(.playbackProgressed(.nan))
        await store.send(.playbackProgressed(-2)) {
            $0.playbackProgress = 0
            $0.progress = 0
        }
    }

    @Test func accessibilityStepsSeekByFivePercentWithinBounds() async {
        let store = makeStore(progress: 0.98)
        await store.send(.accessibilityIncremented) {
            $0.progress = 1
            $0.playbackProgress = 1
        }
        await store.receive(.delegate(.seekRequested(1)))
        await store.send(.accessibilityDecremented) {
            $0.progress = 0.95
            $0.playbackProgress = 0.95
        }
        await store.receive(.delegate(.seekRequested(0.95)))
    }

    @Test func barsAndLayoutArrive() async {
        let store = TestStore(initialState: ScrubberFeature.State(), reducer: ScrubberFeature())
        await store.send(.barsLoaded([0.5, 1])) { $0.bars = [0.5, 1] }
        await store.send(.laidOut(width: -3)) { $0.width = 0 }
        await store.send(.laidOut(width: 320)) { $0.width = 320 }
    }

    @Test(arguments: [(0.0, 0, 0.0), (0.25, 2, 0.5), (0.3, 3, 0.0), (0.999, 9, 0.99), (1, 10, 0)])
    func theSplitBetweenPlayedAndUnplayedBars(progress: Double, played: Int, fraction: Double) {
        let state = ScrubberFeature.State(bars: Self.bars, progress: progress, width: 400)
        #expect(state.playedBarCount == played)
        #expect(state.playedBars.count + state.unplayedBars.count == Self.bars.count)
        #expect(abs(state.splitBarFraction - fraction) < 1e-9)
        #expect(state.splitX == progress * 400)
    }

    @Test func aDragTicksOncePerBarEntered() async {
        let store = makeStore()
        await store.send(.dragStarted(x: 0)) { $0.isDragging = true }
        await store.send(.dragMoved(x: 39)) { $0.progress = 0.0975 }
        await store.send(.dragMoved(x: 41)) { $0.progress = 0.1025 }
        await store.receive(.delegate(.dragCrossedBar(1)))
        await store.send(.dragMoved(x: 120)) { $0.progress = 0.3 }
        await store.receive(.delegate(.dragCrossedBar(3)))
        await store.send(.dragMoved(x: 900)) { $0.progress = 1 }
        await store.receive(.delegate(.dragCrossedBar(9)))
        await store.send(.dragMoved(x: 1000))
        await store.send(.dragCancelled) {
            $0.isDragging = false
            $0.progress = 0
        }
    }

    @Test func withoutBarsADragDoesNotTick() async {
        let store = TestStore(initialState: ScrubberFeature.State(width: 100), reducer: ScrubberFeature())
        await store.send(.dragStarted(x: 0)) { $0.isDragging = true }
        await store.send(.dragMoved(x: 50)) { $0.progress = 0.5 }
        await store.send(.dragEnded(x: 50)) {
            $0.isDragging = false
            $0.playbackProgress = 0.5
        }
        await store.receive(.delegate(.seekRequested(0.5)))
    }

    @Test(arguments: [(3.0, 1.0), (-1.0, 0.0), (Double.nan, 0.0), (0.25, 0.25)])
    func theInitialProgressIsClamped(given: Double, expected: Double) {
        let state = ScrubberFeature.State(bars: Self.bars, progress: given, width: -5)
        #expect(state.progress == expected)
        #expect(state.playbackProgress == expected)
        #expect(state.width == 0)
        #expect(!state.isDragging)
    }
}
