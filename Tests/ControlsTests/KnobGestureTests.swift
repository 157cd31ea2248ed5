import Controls
import ControlsTesting
import Parameters
import Testing

/// SURFACES.md §2: gestures touch and release the parameter, and a held knob does not jump.
@Suite struct KnobGestureTests {
    let tree: ParameterTree
    let release: Parameter
    let clock = TestClock()

    init() throws {
        (tree, release) = try ParameterFixtures.releaseTree()
    }

    private func makeStore() -> TestStore<KnobFeature> {
        TestStore(
            initialState: KnobFeature.State(parameter: release),
            reducer: KnobFeature(locale: ParameterFixtures.english), clock: clock)
    }

    private func write(_ value: ParameterValue, _ eventType: AutomationEventType, token: ParameterObserverToken? = nil)
        -> KnobFeature.Action
    {
        .parameterWritten(ParameterWrite(parameter: release, value: value, eventType: eventType, originator: token))
    }

    @Test func stepsAreOneGestureThatEndsAfterTheirTimeout() async {
        let store = makeStore()
        await store.send(.stepped(toNorm: 0.1)) {
            $0.gesture = .steps
            $0.track.norm = 0.1
        }
        await store.receive(write(0, .touch))
        await store.receive(.title(.dragActive(true))) { $0.title.dragActive = true }
        await store.receive(write(10, .value))
        await store.receive(.title(.valueChanged(10))) { $0.title.formattedValue = "10" }
        clock.advance(by: .milliseconds(200))
        await store.send(.stepped(toNorm: 0.2)) { $0.track.norm = 0.2 }
        await store.receive(write(20, .value))
        await store.receive(.title(.valueChanged(20))) { $0.title.formattedValue = "20" }
        // The timeout restarted with the second step: 299 ms later the gesture still holds.
        clock.advance(by: .milliseconds(299))
        #expect(store.liveState.gesture == .steps)
        clock.advance(by: .milliseconds(1))
        await store.receive(.stepGestureTimedOut) { $0.gesture = nil }
        await store.receive(write(20, .release))
        await store.receive(.title(.dragActive(false))) { $0.title.dragActive = false }
        clock.advance(by: .milliseconds(1250))
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        #expect(release.value == 20)
    }

    @Test func stepsClampToTheRange() async {
        let store = makeStore()
        store.exhaustivity = .off
        await store.send(.stepped(toNorm: 1.7))
        #expect(store.liveState.track.norm == 1)
        await store.send(.stepped(toNorm: -3))
        #expect(store.liveState.track.norm == 0)
        store.skipReceivedActions()
        store.skipInFlightEffects()
    }

    @Test func aValueFromElsewhereWaitsWhileHeldAndShowsOnRelease() async {
        let store = makeStore()
        let theme = Theme()
        await store.send(.task(theme)) {
            $0.theme = theme
            $0.observerToken = store.liveState.observerToken
        }
        let token = store.state.observerToken
        await store.send(.track(.dragStarted(0))) { $0.gesture = .drag }
        await store.receive(write(0, .touch, token: token))
        await store.receive(.title(.dragActive(true))) { $0.title.dragActive = true }
        release.setValue(70)
        clock.advance(by: .milliseconds(10))
        await store.receive(.valueChanged(70)) { $0.heldValue = 70 }
        #expect(store.state.track.norm == 0)
        await store.send(.track(.dragEnded(0))) {
            $0.gesture = nil
            $0.heldValue = nil
        }
        await store.receive(write(70, .release, token: token))
        await store.receive(.title(.dragActive(false))) { $0.title.dragActive = false }
        await store.receive(.valueChanged(70))
        await store.receive(.title(.valueChanged(70))) { $0.title.formattedValue = "70" }
        await store.receive(.track(.valueChanged(70))) { $0.track.norm = 0.7 }
        #expect(release.value == 70)
        await store.send(.stopValueObservation) { $0.observerToken = nil }
        clock.run()
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
    }

    @Test func movingAfterARemoteValueDropsIt() async {
        let store = makeStore()
        await store.send(.track(.dragStarted(0))) { $0.gesture = .drag }
        await store.receive(write(0, .touch))
        await store.receive(.title(.dragActive(true))) { $0.title.dragActive = true }
        await store.send(.valueChanged(70)) { $0.heldValue = 70 }
        await store.send(.track(.dragChanged(0.3))) {
            $0.track.norm = 0.3
            $0.heldValue = nil
        }
        await store.receive(write(30, .value))
        await store.receive(.title(.valueChanged(30))) { $0.title.formattedValue = "30" }
        await store.send(.track(.dragEnded(0.3))) { $0.gesture = nil }
        await store.receive(write(30, .release))
        await store.receive(.title(.dragActive(false))) { $0.title.dragActive = false }
        clock.run()
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
    }

    @Test func resetGoesBackToTheDefault() async throws {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "gain", displayName: "Gain", address: 3, minValue: -60, maxValue: 12, defaultValue: -6,
                    unit: .decibels))
        ])
        let gain = tree.parameter(withAddress: 3)!
        gain.setValue(0)
        let store = TestStore(
            initialState: KnobFeature.State(parameter: gain),
            reducer: KnobFeature(locale: ParameterFixtures.english), clock: clock)
        await store.send(.resetRequested)
        await store.receive(.parameterWritten(.value(gain, -6)))
        await store.receive(.title(.valueChanged(-6))) { $0.title.formattedValue = "-6 dB" }
        await store.receive(.track(.valueChanged(-6))) { $0.track.norm = 54.0 / 72.0 }
        #expect(gain.value == -6)
        clock.run()
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
    }

    @Test func aReadOnlyClientWritesNothingAndReportsNothing() async {
        let store = TestStore(
            initialState: KnobFeature.State(parameter: release),
            reducer: KnobFeature(locale: ParameterFixtures.english, parameters: .readOnly), clock: clock)
        await store.send(.setValueSilently(40))
        await store.receive(.track(.valueChanged(40))) { $0.track.norm = 0.4 }
        #expect(release.value == 0)
    }
}

@Suite struct KnobEditorDisplayTextTests {
    @Test func displayTextIsReadByTheParametersParser() async throws {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "frequency", displayName: "Frequency", address: 3, minValue: 10, maxValue: 20000,
                    unit: .hertz))
        ])
        let frequency = tree.parameter(withAddress: 3)!
        let store = TestStore(
            initialState: KnobFeature.State(parameter: frequency),
            reducer: KnobFeature(locale: ParameterFixtures.english))
        store.exhaustivity = .off
        await store.send(.title(.titleTapped(Theme())))
        #expect(store.liveState.editor?.suffixAllowed == .allowed)
        await store.send(.editorTextChanged("1.2kHz"))
        #expect(store.liveState.editor?.value == "1.2kHz")
        await store.send(.editorDismissed("1.2kHz"))
        #expect(frequency.value == 1200)
        store.skipReceivedActions()
        store.skipInFlightEffects()
    }
}
