import Controls
import Locking
import Testing

@Suite struct StoreTests {
    @Test func mergedSendsArriveBeforeSendReturnsAndObserversSeeTheSettledState() {
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: TestClock())
        let seen = Locked<[Int]>([])
        let observation = store.observe { state in seen.withLock { $0.append(state.count) } }
        store.send(.incrementTwiceTapped)
        #expect(store.state.count == 2)
        // One notification for the action and the two it sent, with the state after all three.
        #expect(seen.withLock { $0 } == [2])
        store.send(.incrementTapped)
        #expect(seen.withLock { $0 } == [2, 3])
        observation.cancel()
        store.send(.incrementTapped)
        #expect(seen.withLock { $0 } == [2, 3])
    }

    @Test func delayedActionWaitsForTheClock() {
        let clock = TestClock()
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: clock)
        store.send(.delayedIncrementTapped)
        #expect(store.runningEffectCount == 1)
        clock.advance(by: .milliseconds(99))
        #expect(store.state.count == 0)
        clock.advance(by: .milliseconds(1))
        #expect(store.state.count == 1)
        #expect(store.runningEffectCount == 0)
    }

    @Test func cancelInFlightRestartsTheTimer() {
        let clock = TestClock()
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: clock)
        store.send(.delayedIncrementTapped)
        clock.advance(by: .milliseconds(60))
        store.send(.delayedIncrementTapped)
        clock.advance(by: .milliseconds(60))
        #expect(store.state.count == 0)
        clock.advance(by: .milliseconds(40))
        #expect(store.state.count == 1)
        #expect(clock.pendingCount == 0)
    }

    @Test func cancelStopsTheTimer() {
        let clock = TestClock()
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: clock)
        store.send(.delayedIncrementTapped)
        store.send(.cancelTimerTapped)
        clock.run()
        #expect(store.state.count == 0)
        #expect(store.runningEffectCount == 0)
        #expect(clock.pendingCount == 0)
    }

    @Test func subscriptionDeliversUntilCancelled() {
        let source = CounterFeature.Source()
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: TestClock())
        store.send(.startListening(source))
        source.emit(7)
        #expect(store.state.count == 7)
        store.send(.stopListening)
        #expect(source.listener.withLock { $0 } == nil)
        source.emit(9)
        #expect(store.state.count == 7)
    }

    @Test func debouncedSendsOnlyTheLastOfABurst() {
        let clock = TestClock()
        let source = CounterFeature.Source()
        let store = Store(
            initialState: CounterFeature.State(), reducer: CounterFeature(debounce: .milliseconds(10)), clock: clock)
        store.send(.startListening(source))
        source.emit(1)
        clock.advance(by: .milliseconds(9))
        source.emit(2)
        clock.advance(by: .milliseconds(9))
        source.emit(3)
        #expect(store.state.count == 0)
        clock.advance(by: .milliseconds(10))
        #expect(store.state.count == 3)
        source.emit(4)
        store.send(.stopListening)
        clock.run()
        #expect(store.state.count == 3)
    }

    @Test func cancellingAllEffectsStopsSubscriptions() {
        let source = CounterFeature.Source()
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: TestClock())
        store.send(.startListening(source))
        store.cancelAllEffects()
        #expect(source.listener.withLock { $0 } == nil)
        #expect(store.runningEffectCount == 0)
    }

    @Test func realClockFiresAfterTheDelay() async throws {
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: RealClock())
        store.send(.delayedIncrementTapped)
        for _ in 0..<200 where store.state.count == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(store.state.count == 1)
    }

    @Test func immediateClockRunsAtOnce() {
        let store = Store(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: ImmediateClock())
        store.send(.delayedIncrementTapped)
        #expect(store.state.count == 1)
        #expect(store.state.message == nil)
        #expect(store.runningEffectCount == 0)
    }
}
