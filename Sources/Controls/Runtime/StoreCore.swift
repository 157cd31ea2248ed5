import Locking

/// The engine shared by ``Store`` and the test store: a serial action queue, the state, and the
/// registry of running effects.
///
/// Actions are processed one at a time, in arrival order, on whichever thread finds the queue
/// idle; a send from another thread while the queue drains only enqueues. The reducer and every
/// callback run outside the lock, so a reducer may write a parameter whose observers send to the
/// same store.
package final class StoreCore<R: Reducer>: Sendable {
    package typealias State = R.State
    package typealias Action = R.Action

    /// Where a processed action came from.
    package enum Origin: Sendable, Equatable {
        /// Sent by the store's owner.
        case external
        /// Sent by an effect.
        case effect
    }

    /// What kind of work a running effect is, for waiting and for messages.
    package enum Kind: Sendable, Equatable {
        case timer
        case subscription
        case task
    }

    /// A running effect, as the test store reports it.
    package struct RunningEffect: Sendable {
        package var kind: Kind
        package var ids: Set<EffectID>
        package var startedBy: String
    }

    private struct Entry {
        var info: RunningEffect
        var cancel: Cancellation?
        var debounce: Cancellation?
        var debounceGeneration = 0
    }

    private struct Inner {
        var state: State
        var queue: [(Action, Origin)] = []
        var draining = false
        var nextKey = 0
        var running: [Int: Entry] = [:]
    }

    private let reducer: R
    private let clock: any EffectClock
    private let inner: Locked<Inner>
    private let didProcess: @Sendable (Action, Origin, State) -> Void
    private let didSettle: @Sendable (State) -> Void

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - didProcess: called after each action with its origin and the resulting state, on the
    ///     processing thread, before the action's effects start.
    ///   - didSettle: called with the state once the queue is empty again: after an action and
    ///     every action its effects sent at once (`.send`, `.merge`), so that an observer never
    ///     sees half of what one action did.
    package init(
        initialState: State,
        reducer: R,
        clock: any EffectClock,
        didProcess: @escaping @Sendable (Action, Origin, State) -> Void = { _, _, _ in },
        didSettle: @escaping @Sendable (State) -> Void = { _ in }
    ) {
        self.reducer = reducer
        self.clock = clock
        self.inner = Locked(Inner(state: initialState))
        self.didProcess = didProcess
        self.didSettle = didSettle
    }

    deinit {
        cancelAll()
    }

    package var state: State {
        inner.withLock { $0.state }
    }

    package var runningEffects: [RunningEffect] {
        inner.withLock { inner in inner.running.sorted { $0.key < $1.key }.map(\.value.info) }
    }

    package var isDraining: Bool {
        inner.withLock { $0.draining }
    }

    package func send(_ action: Action, origin: Origin = .external) {
        let shouldDrain = inner.withLock { inner in
            inner.queue.append((action, origin))
            if inner.draining { return false }
            inner.draining = true
            return true
        }
        if shouldDrain {
            drain()
        }
    }

    package func cancelAll() {
        let cancellations = inner.withLock { inner in
            let entries = inner.running.values
            inner.running.removeAll()
            return entries.flatMap { [$0.cancel, $0.debounce].compactMap { $0 } }
        }
        cancellations.forEach { $0.cancel() }
    }

    private func drain() {
        while true {
            let next: (Action, Origin, State)? = inner.withLock { inner in
                guard !inner.queue.isEmpty else {
                    inner.draining = false
                    return nil
                }
                let (action, origin) = inner.queue.removeFirst()
                return (action, origin, inner.state)
            }
            guard let (action, origin, before) = next else { return didSettle(state) }
            var state = before
            let effect = reducer.reduce(into: &state, action: action)
            inner.withLock { [state] in $0.state = state }
            didProcess(action, origin, state)
            start(effect, ids: [], startedBy: String(describing: action))
        }
    }

    private func start(_ effect: Effect<Action>, ids: Set<EffectID>, startedBy: String) {
        switch effect.operation {
        case .none:
            break
        case .send(let action):
            // Already inside `drain`: this only enqueues, so merged sends keep their order.
            send(action, origin: .effect)
        case .merge(let effects):
            for effect in effects {
                start(effect, ids: ids, startedBy: startedBy)
            }
        case .cancel(let id):
            cancel(id)
        case .cancellable(let id, let cancelInFlight, let effect):
            if cancelInFlight {
                cancel(id)
            }
            start(effect, ids: ids.union([id]), startedBy: startedBy)
        case .delayed(let delay, let action):
            let key = register(RunningEffect(kind: .timer, ids: ids, startedBy: startedBy))
            let work = clock.schedule(after: delay) { [weak self] in
                guard let self, self.finish(key) else { return }
                self.send(action, origin: .effect)
            }
            attach(work, to: key)
        case .perform(let work):
            if let action = work() {
                send(action, origin: .effect)
            }
        case .subscribe(let body):
            let key = register(RunningEffect(kind: .subscription, ids: ids, startedBy: startedBy))
            attach(body(makeSend(key)), to: key)
        case .run(let operation):
            let key = register(RunningEffect(kind: .task, ids: ids, startedBy: startedBy))
            let send = makeSend(key)
            let task = Task { [weak self] in
                await operation(send)
                _ = self?.finish(key)
            }
            attach(Cancellation { task.cancel() }, to: key)
        }
    }

    private func register(_ info: RunningEffect) -> Int {
        inner.withLock { inner in
            let key = inner.nextKey
            inner.nextKey += 1
            inner.running[key] = Entry(info: info)
            return key
        }
    }

    /// Stores how to stop the effect, or stops it at once if it already ended or was cancelled
    /// while starting (an immediate clock fires before `schedule` returns).
    private func attach(_ cancellation: Cancellation, to key: Int) {
        let stillRunning = inner.withLock { inner in
            guard inner.running[key] != nil else { return false }
            inner.running[key]?.cancel = cancellation
            return true
        }
        if !stillRunning {
            cancellation.cancel()
        }
    }

    /// Removes a finished effect; returns false if it had been cancelled.
    private func finish(_ key: Int) -> Bool {
        inner.withLock { $0.running.removeValue(forKey: key) != nil }
    }

    private func isRunning(_ key: Int) -> Bool {
        inner.withLock { $0.running[key] != nil }
    }

    private func cancel(_ id: EffectID) {
        let cancellations = inner.withLock { inner in
            let keys = inner.running.filter { $0.value.info.ids.contains(id) }.map(\.key)
            return keys.flatMap { key in
                let entry = inner.running.removeValue(forKey: key)
                return [entry?.cancel, entry?.debounce].compactMap { $0 }
            }
        }
        cancellations.forEach { $0.cancel() }
    }

    private func makeSend(_ key: Int) -> Send<Action> {
        Send(
            send: { [weak self] action in
                guard let self, self.isRunning(key) else { return }
                self.send(action, origin: .effect)
            },
            debounce: { [weak self] action, interval in
                self?.debounce(action, interval: interval, key: key)
            })
    }

    private func debounce(_ action: Action, interval: Duration, key: Int) {
        let claim: (generation: Int, previous: Cancellation?)? = inner.withLock { inner in
            guard var entry = inner.running[key] else { return nil }
            entry.debounceGeneration += 1
            let previous = entry.debounce
            entry.debounce = nil
            inner.running[key] = entry
            return (entry.debounceGeneration, previous)
        }
        guard let claim else { return }
        claim.previous?.cancel()
        let work = clock.schedule(after: interval) { [weak self] in
            guard let self else { return }
            let current = self.inner.withLock { inner -> Bool in
                guard let entry = inner.running[key], entry.debounceGeneration == claim.generation else {
                    return false
                }
                inner.running[key]?.debounce = nil
                return true
            }
            if current {
                self.send(action, origin: .effect)
            }
        }
        let keep = inner.withLock { inner -> Bool in
            guard let entry = inner.running[key], entry.debounceGeneration == claim.generation else {
                return false
            }
            inner.running[key]?.debounce = work
            return true
        }
        if !keep {
            work.cancel()
        }
    }
}
