import Controls
import ControlsTesting
import Parameters
import Testing

@Suite struct TrackFeatureTests {
    private let transform = NormValueTransform(minimumValue: 0, maximumValue: 100)

    @Test func initStartsAtZero() {
        #expect(TrackFeature.State(normValueTransform: transform).norm == 0)
    }

    @Test func normCarryingActionsSetTheNorm() async {
        let store = TestStore(initialState: TrackFeature.State(normValueTransform: transform), reducer: TrackFeature())
        await store.send(.dragStarted(0.1)) { $0.norm = 0.1 }
        await store.send(.dragChanged(0.2)) { $0.norm = 0.2 }
        await store.send(.dragEnded(0.3)) { $0.norm = 0.3 }
        await store.send(.normChanged(0.4)) { $0.norm = 0.4 }
        await store.send(.valueChanged(150)) { $0.norm = 1 }
        await store.send(.valueChanged(-5)) { $0.norm = 0 }
        await store.send(.viewTapped(times: 1))
        await store.send(.viewTapped(times: 2))
    }

    @Test(arguments: [
        (TrackFeature.Action.dragStarted(0), AutomationEventType?.some(.touch)),
        (.dragChanged(0), .value), (.dragEnded(0), .release), (.normChanged(0), nil), (.valueChanged(0), nil),
        (.viewTapped(times: 1), nil),
    ])
    func causes(action: TrackFeature.Action, cause: AutomationEventType?) {
        #expect(action.cause == cause)
    }

    @Test func dragTrackerSendsStartChangesAndEnd() {
        var tracker = KnobDragTracker(scaling: KnobDragScaling(diameter: 100))
        #expect(tracker.moved(to: ControlPoint(x: 50, y: 80), norm: 0.5) == .dragStarted(0.5))
        #expect(tracker.moved(to: ControlPoint(x: 50, y: 60), norm: 0.5) == .dragChanged(0.6))
        #expect(tracker.ended(norm: 0.6) == .dragEnded(0.6))
        #expect(tracker.previous == nil)
    }
}
