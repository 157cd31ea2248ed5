import Testing

@testable import KnobLink

/// A peer's per-parameter intervals, kept as a byte each into a table of the distinct ones.
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
}
