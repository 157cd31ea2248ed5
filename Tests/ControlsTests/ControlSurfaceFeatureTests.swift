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

    private func makeStore() -> TestStore<ControlSurfaceFeature> {
        TestStore(
            initialState: ControlSurfaceFeature.State(
                knobs: [KnobFeature.State(parameter: float), KnobFeature.State(parameter: float)],
                toggles: [ToggleFeature.State(parameter: boolean)]),
            reducer: ControlSurfaceFeature(knob: KnobFeature(locale: ParameterFixtures.english)), clock: clock)
    }

    @Test func onlyOneEditorIsOpen() async {
        let store = makeStore()
        let theme = Theme()
        await store.send(.knob(index: 0, .title(.titleTapped(theme)))) {
            $0.knobs[0].editor = ValueEditorState(id: 2, displayName: "Float", value: "0", theme: theme)
        }
        #expect(store.state.editingKnobIndex == 0)
        await store.send(.knob(index: 1, .title(.titleTapped(theme)))) {
            $0.knobs[1].editor = ValueEditorState(id: 2, displayName: "Float", value: "0", theme: theme)
        }
        await store.receive(.knob(index: 0, .editorDismissed(nil))) { $0.knobs[0].editor = nil }
        #expect(store.state.editor?.displayName == "Float")
        #expect(store.state.editingKnobIndex == 1)
    }

    @Test func controlsOnTheSameParameterObserveIndependently() async {
        let store = makeStore()
        let observers = tree.observerCount
        store.exhaustivity = .off
        await store.send(.task(Theme()))
        #expect(tree.observerCount == observers + 3)
        float.setValue(25)
        boolean.setValue(1)
        await store.receive(.toggle(index: 0, .valueChanged(1))) { $0.toggles[0].isOn = true }
        clock.advance(by: .milliseconds(10))
        await store.receive(.knob(index: 0, .track(.valueChanged(25)))) { $0.knobs[0].track.norm = 0.25 }
        await store.receive(.knob(index: 1, .track(.valueChanged(25)))) { $0.knobs[1].track.norm = 0.25 }
        store.exhaustivity = .on
        store.skipReceivedActions()
        await store.send(.stopValueObservation) {
            $0.knobs[0].observerToken = nil
            $0.knobs[1].observerToken = nil
            $0.toggles[0].observerToken = nil
        }
        #expect(tree.observerCount == observers)
        clock.run()
        store.skipReceivedActions()
        #expect(store.runningEffectCount == 0)
    }

    @Test func actionsReachTheControlAtTheIndex() async {
        let store = makeStore()
        store.exhaustivity = .off
        await store.send(.toggle(index: 0, .toggleTapped(true))) { $0.toggles[0].isOn = true }
        #expect(boolean.value == 1)
        await store.send(.knob(index: 1, .setValueSilently(75)))
        await store.receive(.knob(index: 1, .track(.valueChanged(75)))) { $0.knobs[1].track.norm = 0.75 }
        #expect(store.state.knobs[0].track.norm == 0)
        await store.send(.knob(index: 7, .setValue(1)))
        await store.send(.toggle(index: 7, .toggleTapped(true)))
    }
}
