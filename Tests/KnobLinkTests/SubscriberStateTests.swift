import Testing

@testable import KnobLink

/// A peer's per-parameter intervals, kept as a byte each into a table of the distinct ones, and
/// its send times, kept as `Float` offsets from an epoch that moves on.
@Suite struct SubscriberStateTests {
    @Test func eachParameterReadsBackTheIntervalItWasGiven() {
        let state = SubscriberState(count: 6)
        let given: [Float] = [0, 1.0 / 30, 1.0 / 120, 1.0 / 30, 0.5, 1.0 / 120]
        for (index, interval) in given.enumerated() {
            state.setInterval(index, interval)
        }
        #expect((0..<6).map(state.interval) == given)
        // Four distinct values, 0 among them, in four entries.
        #expect(state.intervalCount == 4)
        state.resetIntervals()
        #expect((0..<6).map(state.interval) == [0, 0, 0, 0, 0, 0])
        #expect(state.intervalCount == 1)
    }

    @Test func aFullTableGivesTheLongestIntervalThatIsNotLonger() {
        let capacity = SubscriberState.intervalCapacity
        let state = SubscriberState(count: capacity + 2)
        // 0 and capacity - 1 more: the table is full.
        for index in 1..<capacity {
            state.setInterval(index, Float(index))
        }
        #expect(state.intervalCount == capacity)
        state.setInterval(capacity, 7.5)
        state.setInterval(capacity + 1, 0.5)
        #expect(state.interval(capacity) == 7)
        #expect(state.interval(capacity + 1) == 0)
        // A value the table holds is still found exactly.
        state.setInterval(0, 12)
        #expect(state.interval(0) == 12)
    }

    /// A monotonic clock of a machine up for days: a `Float` of it would be off by a quarter second.
    static let uptime = 3.0 * 86_400 + 0.123_456_789

    @Test func aSendTimeReadsBackNoEarlierAndAtMostFifteenMicrosecondsLater() {
        let state = SubscriberState(count: 3)
        #expect(state.lastSent(0) == -.infinity)
        var now = Self.uptime
        // Over several epochs: each send is read back as late or a step later, never earlier.
        for step in 0..<2_000 {
            now += 0.1 + Double(step % 7) * 0.013_7
            state.setLastSent(step % 3, now)
            let read = state.lastSent(step % 3)
            #expect(read >= now && read - now <= 1.0 / 65_536, "sent at \(now), read \(read)")
        }
        #expect(state.sentEpoch > Self.uptime)
        #expect(now - state.sentEpoch < SubscriberState.epochSpan)
    }

    @Test func movingTheEpochKeepsTheOlderSendsAndTheNeverSent() {
        let state = SubscriberState(count: 3)
        let first = Self.uptime
        state.setLastSent(0, first)
        // Far past the span: the epoch moves, and the first send is still as late as it was.
        let later = first + 10 * SubscriberState.epochSpan + 0.5
        state.setLastSent(1, later)
        #expect(state.sentEpoch == later)
        #expect(state.lastSent(0) >= first && state.lastSent(0) - first < 0.001)
        #expect(state.lastSent(1) == later)
        #expect(state.lastSent(2) == -.infinity)
    }

    @Test func aReloadCarriesTheSendTimesOver() {
        let old = SubscriberState(count: 2)
        old.setLastSent(0, Self.uptime)
        old.setLastSent(1, Self.uptime + 1)
        let new = SubscriberState(count: 3)
        // New parameter 0 was old 1; new 2 was old 0; new 1 is new.
        new.carry(from: old, previous: [1, -1, 0])
        #expect(new.lastSent(0) == old.lastSent(1))
        #expect(new.lastSent(1) == -.infinity)
        #expect(new.lastSent(2) == old.lastSent(0))
    }
}
