/// Work that a reducer asks the store to do after it has updated the state.
///
/// Effects are values: a reducer returns one, and the store runs it. Everything except ``run(_:)``
/// is synchronous or driven by the store's ``EffectClock``, so that a test on a ``TestClock``
/// decides exactly when each timer fires.
public struct Effect<Action: Sendable>: Sendable {
    package indirect enum Operation: Sendable {
        case none
        case send(Action)
        case merge([Effect])
        case cancel(EffectID)
        case cancellable(EffectID, cancelInFlight: Bool, Effect)
        case delayed(Duration, Action)
        case subscribe(@Sendable (Send<Action>) -> Cancellation)
        case run(@Sendable (Send<Action>) async -> Void)
        case perform(@Sendable () -> Action?)
    }

    package let operation: Operation

    package init(_ operation: Operation) {
        self.operation = operation
    }

    /// An effect that does nothing.
    public static var none: Effect { Effect(.none) }

    /// Feeds `action` back into the store right after the current action, before anything that
    /// was already waiting.
    public static func send(_ action: Action) -> Effect {
        Effect(.send(action))
    }

    /// Runs several effects; their `send`s arrive in the order listed.
    public static func merge(_ effects: Effect...) -> Effect {
        merge(effects)
    }

    /// Runs several effects; their `send`s arrive in the order listed.
    public static func merge(_ effects: [Effect]) -> Effect {
        Effect(.merge(effects))
    }

    /// Cancels every running effect marked with `id`.
    public static func cancel(id: some Hashable & Sendable) -> Effect {
        Effect(.cancel(EffectID(id)))
    }

    /// Sends `action` once `delay` has elapsed on the store's clock.
    public static func delayed(_ action: Action, by delay: Duration) -> Effect {
        Effect(.delayed(delay, action))
    }

    /// Starts a long-lived source of actions, such as an observer on a parameter.
    ///
    /// `body` is called once, synchronously, with a ``Send`` that it may keep and call from any
    /// thread; it returns how to stop. The store calls that cancellation when the effect is
    /// cancelled or the store is torn down. The effect counts as running until then.
    public static func subscribe(_ body: @escaping @Sendable (Send<Action>) -> Cancellation) -> Effect {
        Effect(.subscribe(body))
    }

    /// Runs asynchronous work in a task that may send actions; the effect ends when the work
    /// returns. Cancelling it cancels the task, and actions sent after that are dropped.
    public static func run(_ operation: @escaping @Sendable (Send<Action>) async -> Void) -> Effect {
        Effect(.run(operation))
    }

    /// Calls `work` synchronously right after the reducer returns, on the thread that processes
    /// the action, and feeds back the action it returns, if any.
    ///
    /// This is how a reducer reaches a dependency (a parameter write) without doing it inside
    /// `reduce`: the work runs outside the reducer, and the action it returns is what a test
    /// asserts.
    public static func perform(_ work: @escaping @Sendable () -> Action?) -> Effect {
        Effect(.perform(work))
    }

    /// Marks this effect with `id` so that ``cancel(id:)`` can stop it.
    ///
    /// - Parameters:
    ///   - id: the identifier to mark the effect with.
    ///   - cancelInFlight: cancel effects already running with the same `id` first, so that at
    ///     most one runs at a time (this is how a timer restarts).
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
        Effect(.cancellable(EffectID(id), cancelInFlight: cancelInFlight, self))
    }

    /// This effect with every identifier it marks or cancels placed in `scope`, so that the same
    /// feature can run several times in one store without their identifiers colliding.
    public func scoped(_ scope: some Hashable & Sendable) -> Effect {
        let scope = EffectID(scope)
        func rescope(_ id: EffectID) -> EffectID { EffectID(ScopedEffectID(scope: scope, id: id)) }
        switch operation {
        case .none, .send, .delayed, .subscribe, .run, .perform:
            return self
        case .merge(let effects):
            return .merge(effects.map { $0.scoped(scope) })
        case .cancel(let id):
            return Effect(.cancel(rescope(id)))
        case .cancellable(let id, let cancelInFlight, let effect):
            return Effect(.cancellable(rescope(id), cancelInFlight: cancelInFlight, effect.scoped(scope)))
        }
    }

    /// Turns this effect into one that sends the actions of a parent feature.
    public func map<Parent: Sendable>(_ transform: @escaping @Sendable (Action) -> Parent) -> Effect<Parent> {
        switch operation {
        case .none:
            return .none
        case .send(let action):
            return .send(transform(action))
        case .merge(let effects):
            return .merge(effects.map { $0.map(transform) })
        case .cancel(let id):
            return Effect<Parent>(.cancel(id))
        case .cancellable(let id, let cancelInFlight, let effect):
            return Effect<Parent>(.cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform)))
        case .delayed(let delay, let action):
            return .delayed(transform(action), by: delay)
        case .subscribe(let body):
            return .subscribe { send in body(send.map(transform)) }
        case .run(let operation):
            return .run { send in await operation(send.map(transform)) }
        case .perform(let work):
            return .perform { work().map(transform) }
        }
    }
}
