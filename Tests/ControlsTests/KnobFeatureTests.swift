import Controls
import ControlsTesting
import Parameters
import Testing

@Suite struct KnobFeatureTests {
    let tree: ParameterTree
    let release: Parameter

    init() throws {
        (tree, release) = try ParameterFixtures.releaseTree()
    }

    private func makeStore(clock: any EffectClock = ImmediateClock()) -> TestStore<KnobFeature> {
        TestStore(
            initialState: KnobFeature.State(parameter: release),
            reducer: KnobFeature(locale: ParameterFixtures.english),
            clock: clock)
    }

    @Test func valueChanged() async {
        let store = makeStore()
        await store.send(.track(.dragChanged(0.36))) { $0.track.norm = 0.36 }
        await store.receive(.parameterWritten(.value(release, 36)))
        #expect(store.state.value == 36)
        await store.receive(.title(.valueChanged(36))) { $0.title.formattedValue = "36" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.send(.track(.dragChanged(0))) { $0.track.norm = 0 }
        await store.receive(.parameterWritten(.value(release, 0)))
        await store.receive(.title(.valueChanged(0))) { $0.title.formattedValue = "0" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        #expect(release.value == 0)
    }

    @Test func valueChangedSilently() async {
        let store = makeStore()
        await store.send(.track(.dragChanged(0.36))) { $0.track.norm = 0.36 }
        await store.receive(.parameterWritten(.value(release, 36)))
        await store.receive(.title(.valueChanged(36))) { $0.title.formattedValue = "36" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.send(.track(.dragChanged(0))) { $0.track.norm = 0 }
        await store.receive(.parameterWritten(.value(release, 0)))
        await store.receive(.title(.valueChanged(0))) { $0.title.formattedValue = "0" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.send(.setValueSilently(25))
        // The original wrote nothing without an observer token; KnobLink writes anyway.
        await store.receive(.parameterWritten(.value(release, 25)))
        await store.receive(.track(.valueChanged(25))) { $0.track.norm = 0.25 }
        #expect(release.value == 25)
    }

    @Test func dragChanged() async {
        let store = makeStore()
        await store.send(.track(.dragChanged(0.18))) { $0.track.norm = 0.18 }
        await store.receive(.parameterWritten(.value(release, 18)))
        await store.receive(.title(.valueChanged(18))) { $0.title.formattedValue = "18" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.finish()
    }

    @Test func dragEnded() async {
        let store = makeStore()
        await store.send(.track(.dragStarted(0))) { $0.gesture = .drag }
        await store.receive(.parameterWritten(ParameterWrite(parameter: release, value: 0, eventType: .touch)))
        await store.receive(.title(.dragActive(true))) { $0.title.dragActive = true }
        await store.send(.track(.dragChanged(0.2))) { $0.track.norm = 0.2 }
        await store.receive(.parameterWritten(.value(release, 20)))
        await store.receive(.title(.valueChanged(20))) { $0.title.formattedValue = "20" }
        await store.send(.track(.dragEnded(0.30))) {
            $0.track.norm = 0.3
            $0.gesture = nil
        }
        await store.receive(.parameterWritten(ParameterWrite(parameter: release, value: 30, eventType: .release)))
        await store.receive(.title(.dragActive(false))) { $0.title.dragActive = false }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
    }

    @Test func showEditor() async {
        let store = makeStore()
        let theme = Theme()
        await store.send(.track(.dragChanged(0.36))) { $0.track.norm = 0.36 }
        await store.receive(.parameterWritten(.value(release, 36)))
        await store.receive(.title(.valueChanged(36))) { $0.title.formattedValue = "36" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.send(.title(.titleTapped(theme))) {
            $0.editor = ValueEditorState(
                id: 1, displayName: "Release", value: "36", theme: theme, decimalAllowed: .allowed, signAllowed: .none)
        }
    }

    @Test func showEditorViaDoubleTap() async {
        let store = makeStore()
        let theme = Theme(colorScheme: .dark)
        store.exhaustivity = .off
        await store.send(.task(theme)) { $0.theme = theme }
        store.exhaustivity = .on
        await store.send(.track(.dragChanged(0.36))) { $0.track.norm = 0.36 }
        await store.receive(
            .parameterWritten(
                ParameterWrite(
                    parameter: release, value: 36, eventType: .value, originator: store.liveState.observerToken)))
        await store.receive(.title(.valueChanged(36))) { $0.title.formattedValue = "36" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.send(.track(.viewTapped(times: 2))) {
            $0.editor = ValueEditorState(id: 1, displayName: "Release", value: "36", theme: theme)
        }
        await store.send(.stopValueObservation) { $0.observerToken = nil }
        await store.finish()
    }

    @Test func doubleTapWithoutATaskOpensNothing() async {
        let store = makeStore()
        await store.send(.track(.viewTapped(times: 2)))
    }

    @Test func singleTapShowsTheValue() async {
        let store = makeStore()
        await store.send(.track(.viewTapped(times: 1)))
        await store.receive(.title(.valueChanged(0))) { $0.title.formattedValue = "0" }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
    }

    @Test func loneStopObservation() async {
        let store = makeStore()
        await store.send(.stopValueObservation)
        #expect(store.runningEffectCount == 0)
    }

    @Test func performScrollTo() async {
        let store = makeStore()
        await store.send(.performScrollTo(1)) { $0.scrollToDestination = 1 }
        await store.send(.editorDismissed(nil)) { $0.scrollToDestination = nil }
    }

    @Test func knobWithoutParameterGetsItsIdentifierAndGeneralFormatter() {
        let state = KnobFeature.State(value: 2, displayName: "Free", minimumValue: 0, maximumValue: 4, id: 99)
        #expect(state.id == 99)
        #expect(state.parameter == nil)
        #expect(state.valueObservationCancelID == nil)
        #expect(state.formatter == .general())
        #expect(state.track.norm == 0.5)
        #expect(state.value == 2)
    }
}
