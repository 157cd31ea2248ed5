import Controls
import ControlsTesting
import Parameters
import Testing

@Suite struct ToggleFeatureTests {
    let tree: ParameterTree
    let retrigger: Parameter
    let writes: WriteRecorder

    init() throws {
        (tree, retrigger) = try ParameterFixtures.retriggerTree()
        writes = WriteRecorder(tree)
    }

    @Test func initReadsTheParameter() {
        let state = ToggleFeature.State(parameter: retrigger)
        #expect(state.parameter?.address == 10)
        #expect(state.displayName == "Retrigger")
        #expect(state.parameter?.identifier == "RETRIGGER")
        #expect(state.parameter?.range == 0...1)
        #expect(retrigger.value == 0)
        #expect(!state.isOn)
        #expect(state.valueObservationCancelID == "valueObservationCancelId[Parameter: 10]")
    }

    @Test func toggleObservations() async {
        let store = TestStore(initialState: ToggleFeature.State(parameter: retrigger), reducer: ToggleFeature())
        await store.send(.task) { $0.observerToken = store.liveState.observerToken }
        #expect(store.state.observerToken != nil)
        retrigger.setValue(1, originator: nil)
        await store.receive(.valueChanged(1)) { $0.isOn = true }
        retrigger.setValue(0, originator: nil)
        await store.receive(.valueChanged(0)) { $0.isOn = false }
        await store.send(.stopValueObservation) { $0.observerToken = nil }
        retrigger.setValue(1, originator: nil)
        #expect(store.state.isOn == false)
    }

    @Test func toggling() async {
        let store = TestStore(initialState: ToggleFeature.State(parameter: retrigger), reducer: ToggleFeature())
        await store.send(.toggleTapped(true)) { $0.isOn = true }
        await store.receive(.parameterWritten(.value(retrigger, 1)))
        #expect(retrigger.value == 1)
        await store.send(.toggleTapped(false)) { $0.isOn = false }
        await store.receive(.parameterWritten(.value(retrigger, 0)))
        #expect(retrigger.value == 0)
        await store.send(.toggleTapped(false))
        #expect(writes.valueWrites.map(\.value) == [1, 0])
    }

    @Test func setValue() async {
        let store = TestStore(initialState: ToggleFeature.State(parameter: retrigger), reducer: ToggleFeature())
        await store.send(.setValue(true)) { $0.isOn = true }
        await store.receive(.parameterWritten(.value(retrigger, 1)))
        #expect(retrigger.value == 1)
        await store.send(.setValue(false)) { $0.isOn = false }
        await store.receive(.parameterWritten(.value(retrigger, 0)))
        #expect(retrigger.value == 0)
    }

    @Test func ownWritesAreNotEchoed() async {
        let store = TestStore(initialState: ToggleFeature.State(parameter: retrigger), reducer: ToggleFeature())
        await store.send(.task) { $0.observerToken = store.liveState.observerToken }
        await store.send(.toggleTapped(true)) { $0.isOn = true }
        await store.receive(
            .parameterWritten(
                ParameterWrite(parameter: retrigger, value: 1, eventType: .value, originator: store.state.observerToken)
            ))
        #expect(writes.count == 1)
        await store.send(.stopValueObservation) { $0.observerToken = nil }
    }

    @Test func toggleWithoutParameter() async {
        let store = TestStore(
            initialState: ToggleFeature.State(isOn: true, displayName: "On"), reducer: ToggleFeature())
        await store.send(.task)
        await store.send(.toggleTapped(false)) { $0.isOn = false }
        await store.send(.stopValueObservation)
    }

    @Test(arguments: [(Float(-1), false), (0.49, false), (0.5, true), (1e5, true), (0, false), (1, true)])
    func valuesReadAsOnFromOneHalf(value: Float, isOn: Bool) {
        #expect(ToggleFeature.isOn(value) == isOn)
    }

    @Test func onWritesOneAndOffZero() {
        #expect(ToggleFeature.value(for: true) == 1.0)
        #expect(ToggleFeature.value(for: false) == 0.0)
    }
}
