import Controls
import ControlsTesting
import Testing

@Suite struct TestStoreTests {
    private func makeStore(clock: any EffectClock = ImmediateClock()) -> TestStore<CounterFeature> {
        TestStore(initialState: CounterFeature.State(), reducer: CounterFeature(), clock: clock)
    }

    @Test func passesWhenEveryStepIsAsserted() async {
        let store = makeStore()
        await store.send(.incrementTwiceTapped)
        await store.receive(.incrementTapped) { $0.count = 1 }
        await store.receive(.incrementTapped) { $0.count = 2 }
        await store.send(.delayedIncrementTapped) { $0.message = "waiting" }
        await store.receive(.timerFired) {
            $0.message = nil
            $0.count = 3
        }
        #expect(store.state.count == 3)
    }

    @Test func waitsForTasks() async {
        let store = makeStore()
        await store.send(.taskStarted)
        await store.receive(.taskFinished(42)) { $0.count = 42 }
        await store.finish()
    }

    @Test func virtualClockTimersFireOnAdvance() async {
        let clock = TestClock()
        let store = makeStore(clock: clock)
        await store.send(.delayedIncrementTapped) { $0.message = "waiting" }
        clock.advance(by: .milliseconds(100))
        await store.receive(.timerFired) {
            $0.message = nil
            $0.count = 1
        }
    }

    @Test func reportsAnUnassertedStateChange() async {
        await withKnownIssue {
            let store = makeStore()
            await store.send(.incrementTapped)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("State was not expected to change") }
        }
    }

    @Test func reportsAWrongStateChangeWithADiff() async {
        await withKnownIssue {
            let store = makeStore()
            await store.send(.incrementTapped) { $0.count = 2 }
        } matching: { issue in
            issue.comments.contains { comment in
                comment.rawValue.contains("− ") && comment.rawValue.contains("count: 2")
                    && comment.rawValue.contains("+ ") && comment.rawValue.contains("count: 1")
            }
        }
    }

    @Test func reportsActionsLeftUnreceivedBeforeTheNextSend() async {
        await withKnownIssue {
            let store = makeStore()
            await store.send(.incrementTwiceTapped)
            await store.send(.cancelTimerTapped)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Must handle 2 received action(s) before sending") }
        }
    }

    @Test func reportsActionsLeftUnreceivedAtTheEnd() async {
        await withKnownIssue {
            let store = makeStore()
            await store.send(.incrementTwiceTapped)
            await store.receive(.incrementTapped) { $0.count = 1 }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("received 1 unexpected action(s)") }
        }
    }

    @Test func reportsAnUnexpectedReceivedAction() async {
        await withKnownIssue {
            let store = makeStore()
            await store.send(.delayedIncrementTapped) { $0.message = "waiting" }
            await store.receive(.incrementTapped)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Received unexpected action") }
        }
    }

    @Test func reportsAnActionThatNeverComes() async {
        await withKnownIssue {
            let store = makeStore(clock: TestClock())
            store.timeout = .milliseconds(50)
            await store.receive(.timerFired)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("but received no action") }
        }
    }

    @Test func reportsAnEffectStillRunningAtTheEnd() async {
        await withKnownIssue {
            let store = makeStore(clock: TestClock())
            await store.send(.delayedIncrementTapped) { $0.message = "waiting" }
        } matching: { issue in
            issue.comments.contains { comment in
                comment.rawValue.contains("effect(s) still running")
                    && comment.rawValue.contains("delayedIncrementTapped")
            }
        }
    }

    @Test func reportsFinishWithEffectsRunning() async {
        await withKnownIssue {
            let store = makeStore(clock: TestClock())
            await store.send(.startListening(CounterFeature.Source()))
            await store.finish()
            store.skipInFlightEffects()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Expected effects to finish") }
        }
    }

    @Test func nonExhaustiveModeChecksOnlyWhatIsAsserted() async {
        let store = makeStore()
        store.exhaustivity = .off
        await store.send(.incrementTwiceTapped)
        await store.send(.delayedIncrementTapped)
        await store.receive(.timerFired) { $0.count = 3 }
        #expect(store.state.message == nil)
        await store.send(.startListening(CounterFeature.Source()))
    }

    @Test func nonExhaustiveModeStillReportsAWrongAssertion() async {
        await withKnownIssue {
            let store = makeStore()
            store.exhaustivity = .off
            await store.send(.incrementTapped) { $0.count = 5 }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("does not match") }
        }
    }

    @Test func skippingHandlesLeftovers() async {
        let store = makeStore(clock: TestClock())
        await store.send(.incrementTwiceTapped)
        store.skipReceivedActions()
        #expect(store.state.count == 2)
        await store.send(.delayedIncrementTapped) { $0.message = "waiting" }
        store.skipInFlightEffects()
    }
}

@Suite struct TestStoreAssertionTests {
    struct AssertionFailed: Error {}

    @Test func reportsAThrowingAssertion() async {
        await withKnownIssue {
            let store = TestStore(initialState: CounterFeature.State(), reducer: CounterFeature())
            await store.send(.incrementTapped) { _ in throw AssertionFailed() }
        } matching: { issue in
            // The count still changed without being asserted, which is reported too.
            issue.comments.contains {
                $0.rawValue.contains("The assertion closure threw") || $0.rawValue.contains("does not match")
            }
        }
    }
}
