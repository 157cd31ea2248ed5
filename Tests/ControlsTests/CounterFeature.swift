import Controls
import Locking

/// A small feature that exercises every kind of effect, for the runtime and test-store tests.
struct CounterFeature: Reducer {
    struct State: Equatable, Sendable {
        var count = 0
        var message: String?
    }

    enum Action: Equatable, Sendable {
        case incrementTapped
        case incrementTwiceTapped
        case delayedIncrementTapped
        case timerFired
        case cancelTimerTapped
        case startListening(Source)
        case stopListening
        case heard(Int)
        case taskStarted
        case taskFinished(Int)
    }

    /// A stand-in for a parameter: calling `emit` delivers to the current listener.
    final class Source: Sendable, Equatable {
        /// The listener in a class box: a closure kept directly as a lock's value gains a layer of
        /// reabstraction thunks on every read (see `LockedHandler` in KnobLink).
        final class Listener: Sendable {
            let body: @Sendable (Int) -> Void
            init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }
        }

        let listener = Locked<Listener?>(nil)

        func emit(_ value: Int) {
            listener.withLock { $0 }?.body(value)
        }

        static func == (lhs: Source, rhs: Source) -> Bool { lhs === rhs }
    }

    enum CancelID: Hashable, Sendable {
        case timer
        case listening
    }

    var debounce: Duration? = nil

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .incrementTapped:
            state.count += 1
            return .none
        case .incrementTwiceTapped:
            return .merge(.send(.incrementTapped), .send(.incrementTapped))
        case .delayedIncrementTapped:
            state.message = "waiting"
            return .delayed(.timerFired, by: .milliseconds(100)).cancellable(id: CancelID.timer, cancelInFlight: true)
        case .timerFired:
            state.message = nil
            state.count += 1
            return .none
        case .cancelTimerTapped:
            state.message = nil
            return .cancel(id: CancelID.timer)
        case .startListening(let source):
            return .subscribe { [debounce] send in
                let listener = Source.Listener { value in
                    if let debounce {
                        send.debounced(.heard(value), for: debounce)
                    } else {
                        send(.heard(value))
                    }
                }
                source.listener.withLock { $0 = listener }
                return Cancellation { source.listener.withLock { $0 = nil } }
            }
            .cancellable(id: CancelID.listening, cancelInFlight: true)
        case .stopListening:
            return .cancel(id: CancelID.listening)
        case .heard(let value):
            state.count = value
            return .none
        case .taskStarted:
            return .run { send in
                try? await Task.sleep(for: .milliseconds(5))
                send(.taskFinished(42))
            }
        case .taskFinished(let value):
            state.count = value
            return .none
        }
    }
}
