import Controls
import Testing

@Suite struct TestClockTests {
    @Test func runsDueWorkInDeadlineOrder() {
        let clock = TestClock()
        let log = LockedBox<[String]>([])
        _ = clock.schedule(after: .milliseconds(20)) { log.value.append("b@\(clock.now)") }
        _ = clock.schedule(after: .milliseconds(10)) { log.value.append("a@\(clock.now)") }
        _ = clock.schedule(after: .milliseconds(20)) { log.value.append("c") }
        clock.advance(by: .milliseconds(15))
        #expect(log.value == ["a@0.01 seconds"])
        clock.advance(by: .milliseconds(15))
        #expect(log.value == ["a@0.01 seconds", "b@0.02 seconds", "c"])
        #expect(clock.now == .milliseconds(30))
    }

    @Test func cancelledWorkNeverRuns() {
        let clock = TestClock()
        let ran = LockedBox(false)
        let work = clock.schedule(after: .seconds(1)) { ran.value = true }
        work.cancel()
        clock.run()
        #expect(!ran.value)
        #expect(clock.pendingCount == 0)
    }

    @Test func runIncludesWorkScheduledWhileRunning() {
        let clock = TestClock()
        let count = LockedBox(0)
        _ = clock.schedule(after: .seconds(1)) {
            count.value += 1
            _ = clock.schedule(after: .seconds(1)) { count.value += 1 }
        }
        clock.run()
        #expect(count.value == 2)
        #expect(clock.now == .seconds(2))
    }
}
