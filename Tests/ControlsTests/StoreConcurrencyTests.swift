import Controls
import Dispatch
import Parameters
import Testing

@Suite struct StoreConcurrencyTests {
    @Test func sendsFromManyThreadsAreAllProcessed() {
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: TestClock())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<250 {
                store.send(.incrementTapped)
            }
        }
        #expect(store.state.count == 2000)
    }

    @Test func knobOnARealClockSettlesOnTheLastExternalValue() async throws {
        let (_, release) = try ParameterFixtures.releaseTree()
        let store = Store(
            initialState: KnobFeature.State(parameter: release),
            reducer: KnobFeature(
                config: KnobConfig(showValueDuration: .milliseconds(50)), locale: ParameterFixtures.english),
            clock: RealClock())
        store.send(.task(Theme()))
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in 0..<50 {
                release.setValue(Float(worker * 10 + step % 10))
            }
        }
        release.setValue(99)
        for _ in 0..<300 where store.state.value != 99 || store.state.title.formattedValue != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(store.state.value == 99)
        #expect(store.state.title.formattedValue == nil)
        store.send(.stopValueObservation)
        #expect(store.runningEffectCount == 0)
    }
}
