import Locking
import UncheckedState

/// Values, observers and hooks of one tree, shared by all its nodes.
///
/// Values sit in one contiguous array indexed by the parameters' dense index (depth-first order,
/// so a group covers a contiguous range). Observers live in an immutable ``ObserverTable`` that
/// is replaced on every add or remove; a change takes the current table under the lock (a
/// retain, never an allocation) and calls the observers after unlocking, so a callback may add
/// or remove observers without deadlock.
final class ParameterStorage: Sendable {
    enum NodeKey: Hashable {
        case tree
        case group(Int)
        case parameter(Int)
    }

    struct State {
        var values: [ParameterValue]
        var table: ObserverTable
        var hooks: [NodeKey: ParameterHooks]
    }

    private let state: Locked<State>
    /// The group index of each parameter's parent, or -1 at the top level.
    let parameterParents: [Int]
    /// The group index of each group's parent, or -1 at the top level.
    let groupParents: [Int]

    init(defaults: [ParameterValue], parameterParents: [Int], groupParents: [Int]) {
        self.parameterParents = parameterParents
        self.groupParents = groupParents
        state = Locked(State(values: defaults, table: ObserverTable(parameterCount: defaults.count), hooks: [:]))
    }

    @inline(__always)
    private func locked<Result>(_ body: (inout sending State) -> sending Result) -> sending Result {
        state.withLock(body)
    }

    // MARK: Values

    func value(at index: Int) -> ParameterValue {
        locked { $0.values[index] }
    }

    /// The stored value and the provider that may replace it, read under one lock.
    func valueAndProvider(at index: Int) -> (ParameterValue, ImplementorValueProvider?) {
        locked { ($0.values[index], $0.table.valueProviders[index]) }
    }

    func store(_ value: ParameterValue, at index: Int) {
        locked { $0.values[index] = value }
    }

    /// Writes an already clamped value and tells the observers.
    @inline(__always)
    func apply(
        _ applied: ParameterValue, to parameter: Parameter, originator: ParameterObserverToken?,
        eventType: AutomationEventType
    ) -> ParameterSetResult {
        let index = parameter.index
        let (old, table) = locked { state -> (ParameterValue, ObserverTable?) in
            let old = state.values[index]
            if old == applied && eventType == .value { return (old, nil) }
            state.values[index] = applied
            return (old, state.table)
        }
        guard let table else { return .unchanged(applied) }
        let changed = old != applied
        if changed, let implementor = table.valueObservers[index] { implementor(parameter, applied) }
        let change = ParameterChange(parameter: parameter, value: applied, eventType: eventType, originator: originator)
        table.deliver(change, index: index, originator: originator)
        return changed ? .changed(from: old, to: applied) : .unchanged(applied)
    }

    func snapshotValues() -> [ParameterValue] {
        locked { $0.values }
    }

    // MARK: Observers

    func addObserver(
        range: Range<Int>, single: Bool, token given: ParameterObserverToken? = nil,
        callback: @escaping @Sendable (ParameterChange) -> Void
    ) -> ParameterObserverToken {
        // A token given twice names one observer: the later replaces the earlier.
        if let given { removeObserver(given) }
        let token = given ?? .unique()
        let observer = ObserverTable.Observer(callback)
        let entry = ObserverTable.Entry(
            token: token, lowerBound: range.lowerBound, upperBound: range.upperBound,
            observer: UncheckedReference(observer))
        locked { $0.table = $0.table.adding(entry, single: single) }
        withExtendedLifetime(observer) {}
        return token
    }

    func removeObserver(_ token: ParameterObserverToken) {
        let removed: ObserverTable.Observer? = locked { state in
            guard let (table, entry) = state.table.removing(token) else { return nil }
            // Taken while the old table still owns it, so it outlives the flag store below.
            let observer = entry.observer.object
            state.table = table
            return observer
        }
        removed?.active.store(false, ordering: .releasing)
    }

    var observerCount: Int {
        locked { $0.table }.count
    }

    // MARK: Hooks

    func hooks(for key: NodeKey) -> ParameterHooks {
        locked { $0.hooks[key] ?? ParameterHooks() }
    }

    func updateHooks(for key: NodeKey, _ body: (inout ParameterHooks) -> Void) {
        locked { state in
            var hooks = state.hooks[key] ?? ParameterHooks()
            body(&hooks)
            state.hooks[key] = hooks
            let indices = state.values.indices
            state.table = state.table.withHooks(
                valueObservers: indices.map { resolve($0, in: state.hooks) { $0.valueObserver } },
                valueProviders: indices.map { resolve($0, in: state.hooks) { $0.valueProvider } })
        }
    }

    /// The hook of the nearest node (the parameter, its groups upwards, then the tree) that has one.
    func resolvedHook<Hook>(forParameter index: Int, _ pick: (ParameterHooks) -> Hook?) -> Hook? {
        let hooks = locked { $0.hooks }
        return resolve(index, in: hooks, pick)
    }

    func resolvedHook<Hook>(forGroup index: Int, _ pick: (ParameterHooks) -> Hook?) -> Hook? {
        let hooks = locked { $0.hooks }
        return resolve(group: index, in: hooks, pick)
    }

    private func resolve<Hook>(_ index: Int, in hooks: [NodeKey: ParameterHooks], _ pick: (ParameterHooks) -> Hook?)
        -> Hook?
    {
        if let hook = hooks[.parameter(index)].flatMap(pick) { return hook }
        return resolve(group: parameterParents[index], in: hooks, pick)
    }

    private func resolve<Hook>(group: Int, in hooks: [NodeKey: ParameterHooks], _ pick: (ParameterHooks) -> Hook?)
        -> Hook?
    {
        var current = group
        while current >= 0 {
            if let hook = hooks[.group(current)].flatMap(pick) { return hook }
            current = groupParents[current]
        }
        return hooks[.tree].flatMap(pick)
    }
}
