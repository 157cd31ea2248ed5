import Controls
import ControlsTesting
import Foundation
import Parameters
import Testing

/// The decisions of CONTROLS.md section 8 that change the original's behaviour.
@Suite struct KnobFixesTests {
    let tree: ParameterTree
    let release: Parameter
    let writes: WriteRecorder
    let clock = TestClock()

    init() throws {
        (tree, release) = try ParameterFixtures.releaseTree()
        writes = WriteRecorder(tree)
    }

    private func makeStore(locale: Locale = ParameterFixtures.english) -> TestStore<KnobFeature> {
        TestStore(
            initialState: KnobFeature.State(parameter: release), reducer: KnobFeature(locale: locale), clock: clock)
    }

    @Test func dragEmitsTouchAtStartAndReleaseAtEnd() async {
        let store = makeStore()
        await store.send(.track(.dragStarted(0))) { $0.gesture = .drag }
        await store.receive(.parameterWritten(ParameterWrite(parameter: release, value: 0, eventType: .touch)))
        await store.receive(.title(.dragActive(true))) { $0.title.dragActive = true }
        await store.send(.track(.dragChanged(0.25))) { $0.track.norm = 0.25 }
        await store.receive(.parameterWritten(.value(release, 25)))
        await store.receive(.title(.valueChanged(25))) { $0.title.formattedValue = "25" }
        await store.send(.track(.dragChanged(0.5))) { $0.track.norm = 0.5 }
        await store.receive(.parameterWritten(.value(release, 50)))
        await store.receive(.title(.valueChanged(50))) { $0.title.formattedValue = "50" }
        await store.send(.track(.dragEnded(0.5))) { $0.gesture = nil }
        await store.receive(.parameterWritten(ParameterWrite(parameter: release, value: 50, eventType: .release)))
        await store.receive(.title(.dragActive(false))) { $0.title.dragActive = false }
        // What the tree's observers (the server) saw: the gesture's touch and release around the values.
        #expect(writes.all.map(\.eventType) == [.touch, .value, .value, .release])
        #expect(writes.all.map(\.value) == [0, 25, 50, 50])
        store.skipInFlightEffects()
    }

    @Test func gestureWritesOnlyChangedValues() async {
        let store = makeStore()
        await store.send(.track(.dragChanged(0.25))) { $0.track.norm = 0.25 }
        await store.receive(.parameterWritten(.value(release, 25)))
        await store.receive(.title(.valueChanged(25))) { $0.title.formattedValue = "25" }
        await store.send(.track(.dragChanged(0.25)))
        await store.receive(.title(.valueChanged(25)))
        #expect(writes.count == 1)
        store.skipInFlightEffects()
    }

    @Test func stoppingRemovesTheObserverAndASecondStartDoesNotLeak() async {
        let before = tree.observerCount
        let store = makeStore()
        await store.send(.task(Theme())) {
            $0.theme = Theme()
            $0.observerToken = store.liveState.observerToken
        }
        let first = store.state.observerToken
        #expect(tree.observerCount == before + 1)
        await store.send(.task(Theme())) { $0.observerToken = store.liveState.observerToken }
        #expect(store.state.observerToken != first)
        #expect(tree.observerCount == before + 1)
        #expect(store.runningEffectCount == 1)
        await store.send(.stopValueObservation) { $0.observerToken = nil }
        #expect(tree.observerCount == before)
        release.setValue(70)
        clock.run()
        #expect(store.runningEffectCount == 0)
    }

    /// `reduce` alone observes nothing: the token comes from the client, and the observer is added
    /// only when the returned effect runs, under that token.
    @Test func reduceMakesTheTokenAndOnlyItsEffectAddsTheObserver() async {
        let before = tree.observerCount
        let made = ParameterObserverToken(rawValue: 0xC0FFEE)
        let knob = KnobFeature(
            parameters: ParameterClient(write: ParameterClient.live.write, makeObserverToken: { made }))
        var state = KnobFeature.State(parameter: release)
        _ = knob.reduce(into: &state, action: .task(Theme()))
        #expect(state.observerToken == made)
        #expect(tree.observerCount == before)
        _ = knob.reduce(into: &state, action: .stopValueObservation)
        #expect(state.observerToken == nil)

        let store = TestStore(
            initialState: KnobFeature.State(parameter: release), reducer: knob, clock: clock)
        await store.send(.task(Theme())) {
            $0.theme = Theme()
            $0.observerToken = made
        }
        #expect(tree.observerCount == before + 1)
        // A change written as the knob itself is not delivered back to it; one from elsewhere is.
        release.setValue(30, originator: made)
        release.setValue(40)
        clock.advance(by: .milliseconds(10))
        await store.receive(.valueChanged(40))
        await store.receive(.title(.valueChanged(40))) { $0.title.formattedValue = "40" }
        await store.receive(.track(.valueChanged(40))) { $0.track.norm = 0.4 }
        await store.send(.stopValueObservation) { $0.observerToken = nil }
        #expect(tree.observerCount == before)
        store.skipInFlightEffects()
    }

    @Test func cancellingTheStoreEffectsAlsoRemovesTheObserver() async {
        let before = tree.observerCount
        let store = makeStore()
        store.exhaustivity = .off
        await store.send(.task(Theme()))
        #expect(tree.observerCount == before + 1)
        store.skipInFlightEffects()
        #expect(tree.observerCount == before)
    }

    @Test func setValueClampsAndWritesWithoutObserving() async {
        let store = makeStore()
        await store.send(.setValue(150))
        await store.receive(.parameterWritten(.value(release, 100)))
        await store.receive(.title(.valueChanged(100))) { $0.title.formattedValue = "100" }
        await store.receive(.track(.valueChanged(100))) { $0.track.norm = 1 }
        #expect(release.value == 100)
        await store.send(.setValueSilently(-20))
        await store.receive(.parameterWritten(.value(release, 0)))
        await store.receive(.track(.valueChanged(0))) { $0.track.norm = 0 }
        #expect(release.value == 0)
        clock.run()
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
    }

    @Test func repeatedExternalValuesAreDropped() async {
        let store = makeStore()
        await store.send(.task(Theme())) {
            $0.theme = Theme()
            $0.observerToken = store.liveState.observerToken
        }
        release.setValue(40)
        clock.advance(by: .milliseconds(10))
        await store.receive(.valueChanged(40))
        await store.receive(.title(.valueChanged(40))) { $0.title.formattedValue = "40" }
        await store.receive(.track(.valueChanged(40))) { $0.track.norm = 0.4 }
        clock.advance(by: .milliseconds(1250))
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        // The same value again reaches nobody, and a value the knob already shows does not
        // flash the title.
        release.setValue(40)
        clock.advance(by: .milliseconds(10))
        await store.send(.valueChanged(40))
        #expect(clock.pendingCount == 0)
        await store.send(.stopValueObservation) { $0.observerToken = nil }
    }

    @Test func editorAcceptsTheLocaleDecimalSeparator() async {
        let german = Locale(identifier: "de_DE")
        release.setValue(36.5)
        let start = KnobFeature.State(parameter: release)
        let theme = Theme()
        let storeAt365 = TestStore(
            initialState: start, reducer: KnobFeature(locale: german), clock: clock)
        await storeAt365.send(.title(.titleTapped(theme))) {
            $0.editor = ValueEditorState(
                id: 1, displayName: "Release", value: "36,5", theme: theme, decimalSeparator: ",")
        }
        await storeAt365.send(.editorTextChanged("12,5")) { $0.editor?.value = "12,5" }
        await storeAt365.send(.editorTextChanged("12,5,"))
        await storeAt365.send(.editorTextChanged("12.5"))
        await storeAt365.send(.editorDismissed("12,5")) { $0.editor = nil }
        await storeAt365.receive(.parameterWritten(.value(release, 12.5)))
        await storeAt365.receive(.title(.valueChanged(12.5))) { $0.title.formattedValue = "12" }
        await storeAt365.receive(.track(.valueChanged(12.5))) { $0.track.norm = 0.125 }
        #expect(release.value == 12.5)
        clock.run()
        await storeAt365.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
    }

    @Test func editorClampsTypedValuesAndIgnoresNonsense() async {
        let store = makeStore()
        await store.send(.title(.titleTapped(Theme()))) {
            $0.editor = ValueEditorState(id: 1, displayName: "Release", value: "0", theme: Theme())
        }
        await store.send(.editorDismissed("250")) { $0.editor = nil }
        await store.receive(.parameterWritten(.value(release, 100)))
        await store.receive(.title(.valueChanged(100))) { $0.title.formattedValue = "100" }
        await store.receive(.track(.valueChanged(100))) { $0.track.norm = 1 }
        #expect(release.value == 100)
        await store.send(.title(.titleTapped(Theme()))) {
            $0.title.formattedValue = nil
            $0.editor = ValueEditorState(id: 1, displayName: "Release", value: "100", theme: Theme())
        }
        await store.send(.editorDismissed("1.2.3")) { $0.editor = nil }
        await store.send(.title(.titleTapped(Theme()))) {
            $0.editor = ValueEditorState(id: 1, displayName: "Release", value: "100", theme: Theme())
        }
        await store.send(.editorDismissed(nil)) { $0.editor = nil }
        #expect(writes.count == 1)
    }

    @Test func signIsAllowedOnlyWhenTheRangeGoesBelowZero() async throws {
        let panTree = try ParameterTree(children: [
            .parameter(ParameterSpec(identifier: "pan", displayName: "Pan", address: 4, minValue: -50, maxValue: 50))
        ])
        let pan = panTree.parameter(withAddress: 4)!
        let store = TestStore(
            initialState: KnobFeature.State(parameter: pan), reducer: KnobFeature(locale: ParameterFixtures.english))
        await store.send(.title(.titleTapped(Theme()))) {
            $0.editor = ValueEditorState(
                id: 4, displayName: "Pan", value: "-50", theme: Theme(), signAllowed: .allowed)
        }
        await store.send(.editorTextChanged("−12.5")) { $0.editor?.value = "−12.5" }
        await store.send(.editorDismissed("−12.5")) { $0.editor = nil }
        await store.receive(.parameterWritten(.value(pan, -12.5)))
        await store.receive(.title(.valueChanged(-12.5))) { $0.title.formattedValue = "-12" }
        await store.receive(.track(.valueChanged(-12.5))) { $0.track.norm = 0.375 }
        await store.receive(.title(.valueDisplayTimerFired)) { $0.title.formattedValue = nil }
        #expect(pan.value == -12.5)
    }

    @Test func equalMinimumAndMaximumGiveNormZero() {
        let state = KnobFeature.State(value: 5, displayName: "Fixed", minimumValue: 5, maximumValue: 5, id: 1)
        #expect(state.track.norm == 0)
        #expect(state.value == 5)
    }

    @Test func constructingAToggleDoesNotWriteItsParameter() throws {
        let (tree, retrigger) = try ParameterFixtures.retriggerTree()
        let writes = WriteRecorder(tree)
        retrigger.setValue(1)
        let state = ToggleFeature.State(parameter: retrigger)
        #expect(state.isOn)
        #expect(retrigger.value == 1)
        #expect(writes.count == 1)
    }
}
