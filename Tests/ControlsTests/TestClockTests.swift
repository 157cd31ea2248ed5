import Controls
import Locking
import Testing

@Suite struct TestClockTests {
    @Test func runsDueWorkInDeadlineOrder() {
        let clock = TestClock()
        let log = Locked<[String]>([])
        _ = clock.schedule(after: .milliseconds(20)) { log.withLock { $0.append("b@\(clock.now)") } }
        _ = clock.schedule(after: .milliseconds(10)) { log.withLock { $0.append("a@\(clock.now)") } }
        _ = clock.schedule(after: .milliseconds(20)) { log.withLock { $0.append("c") } }
        clock.advance(by: .milliseconds(15))
        #expect(log.withLock { $0 } == ["a@0.01 seconds"])
        clock.advance(by: .milliseconds(15))
        #expect(log.withLock { $0 } == ["a@0.01 seconds", "b@0.02 seconds", "c"])
        #expect(clock.now == .milliseconds(30))
    }

    @Test func cancelledWorkNeverRuns() {
        let clock = TestClock()
        let ran = Locked(false)
        let work = clock.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
        work.cancel()
        clock.run()
        #expect(!ran.withLock { $0 })
        #expect(clock.pendingCount == 0)
    }

    @Test func runIncludesWorkScheduledWhileRunning() {
        let clock = TestClock()
        let count = Locked(0)
        _ = clock.schedule(after: .seconds(1)) {
            count.withLock { $0 += 1 }
            _ = clock.schedule(after: .seconds(1)) { count.withLock { $0 += 1 } }
        }
        clock.run()
        #expect(count.withLock { $0 } == 2)
        #expect(clock.now == .seconds(2))
    }
}
