import Controls
import Locking
import Testing

/// A store for tests that checks every step of a feature, in the manner of The Composable
/// Architecture's `TestStore`.
///
/// ``send(_:assert:sourceLocation:)`` processes an action and compares the resulting state with
/// the state before it as changed by the test's closure; ``receive(_:timeout:assert:sourceLocation:)``
/// does the same for the next action that an effect sent. In the default, exhaustive mode a test
/// fails on any state change it did not assert, on any received action it did not handle before
/// sending the next one or by the end, and on any effect still running when the store goes away.
/// Failures are recorded with Swift Testing's `Issue.record` (or `XCTFail` under XCTest), with a
/// line diff of the expected and actual state.
///
/// Time is whatever the injected clock says: with a `TestClock` the test moves it; with the
/// default `ImmediateClock` every delay elapses at once.
public final class TestStore<R: Reducer> where R.State: Equatable, R.Action: Equatable {
    /// The feature's state type.
    public typealias State = R.State
    /// The feature's action type.
    public typealias Action = R.Action

    private typealias Record = (action: Action, origin: StoreCore<R>.Origin, state: State)

    private final class Recorder: Sendable {
        let records = Locked<[Record]>([])
    }

    /// How strictly the store checks the test; ``Exhaustivity/on`` by default.
    public var exhaustivity: Exhaustivity = .on

    /// How long ``receive(_:timeout:assert:sourceLocation:)`` and ``finish(timeout:sourceLocation:)``
    /// wait for asynchronous work (tasks, or timers on a real clock).
    ///
    /// TCA waits 1 s; KnobLink waits 10 s because its tests run in parallel on shared two-core machines,
    /// where a task can wait that long for a thread. A passing test never waits for the whole timeout.
    public var timeout: Duration = .seconds(10)

    /// The state as the test has asserted it so far.
    public private(set) var state: State

    /// The state the store holds now, including changes that the test has not asserted yet.
    ///
    /// Useful inside an assertion closure for values that a test cannot know in advance, such as
    /// an observer token: `$0.observerToken = store.liveState.observerToken`.
    public var liveState: State {
        core.state
    }

    /// The clock the store's effects wait on.
    public let clock: any EffectClock

    private let core: StoreCore<R>
    private let recorder: Recorder
    private let location: SourceLocation

    /// Creates a test store.
    ///
    /// - Parameters:
    ///   - initialState: the feature's first state.
    ///   - reducer: the feature under test.
    ///   - clock: the clock effects wait on; an `ImmediateClock` by default.
    ///   - sourceLocation: where end-of-test failures are reported.
    public init(
        initialState: State,
        reducer: R,
        clock: any EffectClock = ImmediateClock(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let recorder = Recorder()
        self.recorder = recorder
        self.state = initialState
        self.clock = clock
        self.location = sourceLocation
        self.core = StoreCore(initialState: initialState, reducer: reducer, clock: clock) { action, origin, state in
            recorder.records.withLock { $0.append((action, origin, state)) }
        }
    }

    deinit {
        if exhaustivity == .on {
            let unhandled = recorder.records.withLock { $0.filter { $0.origin == .effect } }
            if !unhandled.isEmpty {
                fail(
                    "The store received \(unhandled.count) unexpected action(s) that the test did not handle:\n"
                        + unhandled.map { "  " + String(describing: $0.action) }.joined(separator: "\n"),
                    at: location)
            }
            let running = core.runningEffects
            if !running.isEmpty {
                fail(
                    "\(running.count) effect(s) still running at the end of the test; each must complete"
                        + " or be cancelled:\n" + running.map(Self.describe).joined(separator: "\n"),
                    at: location)
            }
        }
        core.cancelAll()
    }

    /// Sends `action` and checks the state it produces.
    ///
    /// - Parameters:
    ///   - action: the action to process.
    ///   - update: receives the state before the action and must change it into the state after
    ///     it; without it, the state must not change.
    ///   - sourceLocation: where failures are reported.
    public func send(
        _ action: Action,
        assert update: ((inout State) throws -> Void)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let pending = takeReceived()
        if !pending.isEmpty {
            if exhaustivity == .on {
                fail(
                    "Must handle \(pending.count) received action(s) before sending an action:\n"
                        + pending.map { "  " + String(describing: $0.action) }.joined(separator: "\n"),
                    at: sourceLocation)
            }
            state = pending[pending.count - 1].state
        }
        core.send(action)
        guard let record = await waitForRecord(timeout: timeout, where: { $0.origin == .external }) else {
            fail("The store did not process \(action) within \(timeout)", at: sourceLocation)
            return
        }
        check(update, actual: record.state, headline: "State change does not match expectation", at: sourceLocation)
    }

    /// Checks that the next action an effect sent is `expected`, and the state it produced.
    ///
    /// With exhaustivity off, received actions before a matching one are skipped.
    ///
    /// - Parameters:
    ///   - expected: the action that must come next.
    ///   - timeout: how long to wait if the action may still come from asynchronous work; the
    ///     store's ``timeout`` by default.
    ///   - update: receives the state before the action and must change it into the state after.
    ///   - sourceLocation: where failures are reported.
    public func receive(
        _ expected: Action,
        timeout: Duration? = nil,
        assert update: ((inout State) throws -> Void)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        while true {
            guard let record = await waitForRecord(timeout: timeout ?? self.timeout, where: { $0.origin == .effect })
            else {
                fail("Expected to receive \(expected), but received no action", at: sourceLocation)
                return
            }
            if record.action == expected {
                check(
                    update, actual: record.state, headline: "State change does not match expectation",
                    at: sourceLocation)
                return
            }
            if exhaustivity == .on {
                fail(
                    "Received unexpected action:\n"
                        + TextDiff.lines(
                            expected: String(describing: expected), actual: String(describing: record.action)),
                    at: sourceLocation)
                state = record.state
                return
            }
            state = record.state
        }
    }

    /// Waits until no effect is running; fails if some are still running after `timeout`, or
    /// at once if only work on a virtual clock (or a subscription) remains, since waiting cannot
    /// end it.
    public func finish(timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        while !core.runningEffects.isEmpty, mayStillProgress, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        let running = core.runningEffects
        if !running.isEmpty, exhaustivity == .on {
            fail(
                "Expected effects to finish, but \(running.count) still running:\n"
                    + running.map(Self.describe).joined(separator: "\n"),
                at: sourceLocation)
        }
    }

    /// Drops the received actions that the test has not handled, taking the state they produced.
    public func skipReceivedActions() {
        let pending = takeReceived()
        if let last = pending.last {
            state = last.state
        }
    }

    /// Cancels every running effect, so that the end of the test does not report them.
    public func skipInFlightEffects() {
        core.cancelAll()
    }

    /// The number of effects still running.
    public var runningEffectCount: Int {
        core.runningEffects.count
    }

    private var mayStillProgress: Bool {
        let running = core.runningEffects
        if running.contains(where: { $0.kind == .task }) {
            return true
        }
        return !(clock is TestClock || clock is ImmediateClock) && !running.isEmpty
    }

    private func takeReceived() -> [Record] {
        recorder.records.withLock { records in
            let received = records.filter { $0.origin == .effect }
            records.removeAll { $0.origin == .effect }
            return received
        }
    }

    private func waitForRecord(timeout: Duration, where matches: (Record) -> Bool) async -> Record? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found: Record? = recorder.records.withLock { records in
                guard let index = records.firstIndex(where: matches) else { return nil }
                return records.remove(at: index)
            }
            if let found {
                return found
            }
            let waiting = core.isDraining || mayStillProgress
            guard waiting, ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    private func check(
        _ update: ((inout State) throws -> Void)?,
        actual: State,
        headline: String,
        at location: SourceLocation
    ) {
        var expected = exhaustivity == .on ? state : actual
        do {
            try update?(&expected)
        } catch {
            fail("The assertion closure threw \(error)", at: location)
        }
        if expected != actual {
            let message =
                update == nil && exhaustivity == .on
                ? TextDiff.stateMismatch(
                    "State was not expected to change, but it did", expected: expected, actual: actual)
                : TextDiff.stateMismatch(headline, expected: expected, actual: actual)
            fail(message, at: location)
        }
        state = actual
    }

    private func fail(_ message: String, at location: SourceLocation) {
        FailureReporter.fail(message, at: location)
    }

    private static func describe(_ effect: StoreCore<R>.RunningEffect) -> String {
        let ids = effect.ids.isEmpty ? "" : " (id \(effect.ids.map(\.description).sorted().joined(separator: ", ")))"
        return "  a \(effect.kind) started by \(effect.startedBy)\(ids)"
    }
}
