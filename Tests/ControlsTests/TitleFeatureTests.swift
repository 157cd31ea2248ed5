import Controls
import ControlsTesting
import Parameters
import Testing

@Suite struct TitleFeatureTests {
    let clock = TestClock()

    private func makeStore() -> TestStore<TitleFeature> {
        TestStore(
            initialState: TitleFeature.State(displayName: "Title", formatter: .general(1...4), id: 1),
            reducer: TitleFeature(), clock: clock)
    }

    @Test func initShowsTheName() {
        let state = TitleFeature.State(displayName: "Title", formatter: .general(1...4), id: 1)
        #expect(state.formattedValue == nil)
        #expect(!state.showingValue)
        #expect(state.text == "Title")
    }

    @Test func valueChanged() async {
        let store = makeStore()
        await store.send(.valueChanged(12.34)) { $0.formattedValue = "12.34" }
        #expect(store.state.text == "12.34")
        clock.advance(by: .milliseconds(1249))
        clock.advance(by: .milliseconds(1))
        await store.receive(.valueDisplayTimerFired) { $0.formattedValue = nil }
    }

    @Test func valueChangedMultipleTimes() async {
        let store = makeStore()
        await store.send(.valueChanged(12.34)) { $0.formattedValue = "12.34" }
        clock.advance(by: .milliseconds(625))
        await store.send(.valueChanged(56.78)) { $0.formattedValue = "56.78" }
        clock.advance(by: .milliseconds(625))
        #expect(store.state.formattedValue == "56.78")
        clock.advance(by: .milliseconds(625))
        await store.receive(.valueDisplayTimerFired) { $0.formattedValue = nil }
        clock.run()
    }

    @Test func stoppedShowingValue() async {
        let store = makeStore()
        await store.send(.valueChanged(12.34)) { $0.formattedValue = "12.34" }
        await store.send(.valueChanged(56.78)) { $0.formattedValue = "56.78" }
        clock.run()
        await store.receive(.valueDisplayTimerFired) { $0.formattedValue = nil }
        #expect(clock.now == .milliseconds(1250))
    }

    @Test func tapped() async {
        let store = makeStore()
        await store.send(.valueChanged(12.34)) { $0.formattedValue = "12.34" }
        await store.send(.titleTapped(Theme())) { $0.formattedValue = nil }
        #expect(store.runningEffectCount == 0)
        #expect(clock.pendingCount == 0)
    }

    @Test func noTimerRunsWhileDragging() async {
        let store = makeStore()
        await store.send(.valueChanged(1)) { $0.formattedValue = "1" }
        await store.send(.dragActive(true)) { $0.dragActive = true }
        await store.send(.valueChanged(2)) { $0.formattedValue = "2" }
        clock.advance(by: .seconds(5))
        #expect(store.state.formattedValue == "2")
        await store.send(.dragActive(false)) { $0.dragActive = false }
        clock.advance(by: .milliseconds(1250))
        await store.receive(.valueDisplayTimerFired) { $0.formattedValue = nil }
    }

    @Test func timerIdentifiersAreUniquePerKnob() {
        let first = TitleFeature.State(displayName: "A", formatter: .general(), id: 1)
        let second = TitleFeature.State(displayName: "A", formatter: .general(), id: 2)
        #expect(first.showValueCancelID != second.showValueCancelID)
    }
}
