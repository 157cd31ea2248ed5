import Controls
import ControlsTesting
import Parameters
import Testing

@Suite struct ControlSurfaceFeatureTests {
    let tree: ParameterTree
    let boolean: Parameter
    let float: Parameter
    let clock = TestClock()

    init() throws {
        tree = try ParameterFixtures.dualityTree()
        boolean = tree.parameter(withAddress: 1)!
        float = tree.parameter(withAddress: 2)!
    }

    /// Two knobs on the same parameter (identifiers 21 and 22) and the toggle (identifier 1).
    private func makeStore() -> TestStore<ControlSurfaceFeature> {
        TestStore(
            initialState: ControlSurfaceFeature.State(
                knobs: [KnobFeature.State(parameter: float, id: 21), KnobFeature.State(parameter: float, id: 22)],
                toggles: [ToggleFeature.State(parameter: boolean)]),
            reducer: ControlSurfaceFeature(knob: KnobFeature(locale: ParameterFixtures.english)), clock: clock)
    }

    @Test func onlyOneEditorIsOpen() async {
        let store = makeStore()
        let theme = Theme()
        await store.send(.knob(21, .title(.titleTapped(theme)))) {
            $0.knobs[id: 21]?.editor = ValueEditorState(id: 21, displayName: "Float", value: "0", theme: theme)
        }
        #expect(store.state.editingKnobID == 21)
        await store.send(.knob(22, .title(.titleTapped(theme)))) {
            $0.knobs[id: 22]?.editor = ValueEditorState(id: 22, displayName: "Float", value: "0", theme: theme)
        }
        await store.receive(.knob(21, .editorDismissed(nil))) { $0.knobs[id: 21]?.editor = nil }
        #expect(store.state.editor?.displayName == "Float")
        #expect(store.state.editingKnobID == 22)
    }

    @Test func controlsOnTheSameParameterObserveIndependently() async {
        let store = makeStore()
        let observers = tree.observerCount
        store.exhaustivity = .off
        await store.send(.task(Theme()))
        #expect(tree.observerCount == observers + 3)
        float.setValue(25)
        boolean.setValue(1)
        await store.receive(.toggle(1, .valueChanged(1))) { $0.toggles[id: 1]?.isOn = true }
        clock.advance(by: .milliseconds(10))
        await store.receive(.knob(21, .track(.valueChanged(25)))) { $0.knobs[id: 21]?.track.norm = 0.25 }
        await store.receive(.knob(22, .track(.valueChanged(25)))) { $0.knobs[id: 22]?.track.norm = 0.25 }
        store.exhaustivity = .on
        store.skipReceivedActions()
        await store.send(.stopValueObservation) {
            $0.knobs[id: 21]?.observerToken = nil
            $0.knobs[id: 22]?.observerToken = nil
            $0.toggles[id: 1]?.observerToken = nil
        }
        #expect(tree.observerCount == observers)
        clock.run()
        store.skipReceivedActions()
        #expect(store.runningEffectCount == 0)
    }

    @Test func actionsReachTheControlWithTheIdentifier() async {
        let store = makeStore()
        await store.send(.toggle(1, .toggleTapped(true))) { $0.toggles[id: 1]?.isOn = true }
        await store.receive(
            .toggle(1, .parameterWritten(ParameterWrite(parameter: boolean, value: 1, eventType: .value))))
        #expect(boolean.value == 1)
        await store.send(.knob(22, .setValueSilently(75)))
        await store.receive(
            .knob(22, .parameterWritten(ParameterWrite(parameter: float, value: 75, eventType: .value))))
        await store.receive(.knob(22, .track(.valueChanged(75)))) { $0.knobs[id: 22]?.track.norm = 0.75 }
        #expect(store.state.knobs[id: 21]?.track.norm == 0)
        await store.send(.knob(7, .setValue(1)))
        await store.send(.toggle(7, .toggleTapped(true)))
    }

    @Test func knobsOnOneParameterKeepTheirTimersApart() async {
        let store = makeStore()
        await store.send(.knob(21, .track(.viewTapped(times: 1))))
        await store.receive(.knob(21, .title(.valueChanged(0)))) { $0.knobs[id: 21]?.title.formattedValue = "0" }
        clock.advance(by: .milliseconds(600))
        await store.send(.knob(22, .track(.viewTapped(times: 1))))
        await store.receive(.knob(22, .title(.valueChanged(0)))) { $0.knobs[id: 22]?.title.formattedValue = "0" }
        clock.advance(by: .milliseconds(650))
        await store.receive(.knob(21, .title(.valueDisplayTimerFired))) { $0.knobs[id: 21]?.title.formattedValue = nil }
        clock.advance(by: .milliseconds(600))
        await store.receive(.knob(22, .title(.valueDisplayTimerFired))) { $0.knobs[id: 22]?.title.formattedValue = nil }
    }
}
