import Locking

/// Runs a feature: holds its state, feeds actions to its reducer and runs the returned effects.
///
/// A store may be used from any thread. Actions are processed one at a time in arrival order;
/// ``send(_:)`` returns after the action and everything it sends synchronously have been
/// processed, unless another thread is processing this store's queue at that moment, in which
/// case that thread processes it.
public final class Store<R: Reducer>: Sendable {
    /// The feature's state type.
    public typealias State = R.State
    /// The feature's action type.
    public typealias Action = R.Action

    private let core: StoreCore<R>
    private let observers: Observers

    private final class Observers: Sendable {
        private let list = Locked<(nextKey: Int, bodies: [Int: @Sendable (State) -> Void])>((0, [:]))

        func add(_ body: @escaping @Sendable (State) -> Void) -> Int {
            list.withLock { list in
                defer { list.nextKey += 1 }
                list.bodies[list.nextKey] = body
                return list.nextKey
            }
        }

        func remove(_ key: Int) {
            _ = list.withLock { $0.bodies.removeValue(forKey: key) }
        }

        func notify(_ state: State) {
            for observer in list.withLock({ $0.bodies.sorted { $0.key < $1.key }.map(\.value) }) {
                observer(state)
            }
        }
    }

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - initialState: the feature's first state.
    ///   - reducer: the feature's logic.
    ///   - clock: where timers and debounces wait; ``RealClock`` unless a test injects another.
    public init(initialState: State, reducer: R, clock: any EffectClock = RealClock()) {
        let observers = Observers()
        self.observers = observers
        self.core = StoreCore(
            initialState: initialState, reducer: reducer, clock: clock, didSettle: { state in observers.notify(state) })
    }

    /// The current state.
    public var state: State {
        core.state
    }

    /// The number of effects still running: timers, subscriptions and tasks.
    public var runningEffectCount: Int {
        core.runningEffects.count
    }

    /// Processes `action`.
    public func send(_ action: Action) {
        core.send(action)
    }

    /// Calls `body` with the new state once a send has settled (the action and the actions its
    /// effects sent at once: a frame drawn from it never shows half of what one action did),
    /// until the returned cancellation is cancelled.
    public func observe(_ body: @escaping @Sendable (State) -> Void) -> Cancellation {
        let key = observers.add(body)
        return Cancellation { [observers] in observers.remove(key) }
    }

    /// Cancels every running effect (observers of parameters included).
    public func cancelAllEffects() {
        core.cancelAll()
    }
}
