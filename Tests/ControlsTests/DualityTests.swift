import Controls
import ControlsTesting
import Parameters
import Testing

/// A knob and a toggle driven both from their controls and from elsewhere (a host, MIDI, OSC).
@Suite struct DualityTests {
    let tree: ParameterTree
    let boolean: Parameter
    let float: Parameter
    let clock = TestClock()

    init() throws {
        tree = try ParameterFixtures.dualityTree()
        boolean = tree.parameter(withAddress: 1)!
        float = tree.parameter(withAddress: 2)!
    }

    private func makeKnobStore() async -> TestStore<KnobFeature> {
        let store = TestStore(
            initialState: KnobFeature.State(parameter: float, formatter: .general(1...3)),
            reducer: KnobFeature(locale: ParameterFixtures.english), clock: clock)
        let theme = Theme()
        await store.send(.task(theme)) {
            $0.theme = theme
            $0.observerToken = store.liveState.observerToken
        }
        return store
    }

    /// The write a knob reports, with its observer token.
    private func written(_ store: TestStore<KnobFeature>, _ value: ParameterValue) -> KnobFeature.Action {
        .parameterWritten(
            ParameterWrite(parameter: float, value: value, eventType: .value, originator: store.state.observerToken))
    }

    @Test func remoteBoolValueChanged() async {
        let writes = WriteRecorder(tree)
        let store = TestStore(
            initialState: ToggleFeature.State(parameter: boolean), reducer: ToggleFeature(), clock: clock)
        await store.send(.task) { $0.observerToken = store.liveState.observerToken }
        let external = writes.count
        boolean.setValue(1)
        await store.receive(.valueChanged(1)) { $0.isOn = true }
        boolean.setValue(0)
        await store.receive(.valueChanged(0)) { $0.isOn = false }
        #expect(writes.count - external == 2)
        await store.send(.stopValueObservation) { $0.observerToken = nil }
    }

    @Test func remoteFloatValueChanged() async {
        let store = await makeKnobStore()
        float.setValue(0)
        float.setValue(0.5)
        float.setValue(1.0)
        clock.advance(by: .milliseconds(9))
        clock.advance(by: .milliseconds(1))
        await store.receive(.valueChanged(1.0))
        await store.receive(.title(.valueChanged(1.0))) { $0.title.formattedValue = "1" }
        await store.receive(.track(.valueChanged(1.0))) { $0.track.norm = 0.01 }
        clock.advance(by: .milliseconds(1250))
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }

        float.setValue(12.5)
        clock.advance(by: .milliseconds(10))
        await store.receive(.valueChanged(12.5))
        await store.receive(.title(.valueChanged(12.5))) { $0.title.formattedValue = "12.5" }
        await store.receive(.track(.valueChanged(12.5))) { $0.track.norm = 0.125 }
        clock.advance(by: .milliseconds(1250))
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }

        float.setValue(100)
        clock.advance(by: .milliseconds(10))
        await store.receive(.valueChanged(100))
        await store.receive(.title(.valueChanged(100))) { $0.title.formattedValue = "100" }
        await store.receive(.track(.valueChanged(100))) { $0.track.norm = 1 }
        clock.advance(by: .milliseconds(1250))
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.send(.stopValueObservation) { $0.observerToken = nil }
    }

    @Test func stateSetValue() async {
        let store = await makeKnobStore()
        await store.send(.setValue(100))
        await store.receive(written(store, 100))
        await store.receive(.title(.valueChanged(100))) { $0.title.formattedValue = "100" }
        await store.receive(.track(.valueChanged(100))) { $0.track.norm = 1 }
        await store.send(.setValue(50))
        await store.receive(written(store, 50))
        await store.receive(.title(.valueChanged(50))) { $0.title.formattedValue = "50" }
        await store.receive(.track(.valueChanged(50))) { $0.track.norm = 0.5 }
        // The knob's own writes carry its token: nothing comes back after the debounce.
        clock.advance(by: .milliseconds(10))
        #expect(float.value == 50)
        clock.advance(by: .milliseconds(1250))
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        await store.send(.stopValueObservation) { $0.observerToken = nil }
    }

    @Test func showEditor() async {
        let store = await makeKnobStore()
        await store.send(.setValue(1.23))
        await store.receive(written(store, 1.23))
        await store.receive(.title(.valueChanged(1.23))) { $0.title.formattedValue = "1.23" }
        await store.receive(.track(.valueChanged(1.23))) { $0.track.norm = 1.23 / 100 }
        await store.send(.title(.titleTapped(Theme()))) {
            $0.title.formattedValue = nil
            $0.editor = ValueEditorState(id: 2, displayName: "Float", value: "1.23", theme: Theme())
        }
        await store.send(.stopValueObservation) { $0.observerToken = nil }
    }
}
