import Synchronization

/// Values, observers and hooks of one tree, shared by all its nodes.
///
/// Values sit in one contiguous array indexed by the parameters' dense index (depth-first order,
/// so a group covers a contiguous range). Observers of a single parameter are kept per index;
/// observers of a group or the tree in one list checked by range. A change copies the two lists
/// out of the lock (a retain, never an allocation) and calls them after unlocking, so a callback
/// may add or remove observers.
final class ParameterStorage: Sendable {
    enum NodeKey: Hashable {
        case tree
        case group(Int)
        case parameter(Int)
    }

    struct State {
        var values: [ParameterValue]
        var direct: [[ObserverBox]]
        var broad: [ObserverBox]
        /// Where each token lives: a dense index for a direct observer, -1 for a broad one.
        var homes: [ParameterObserverToken: Int]
        var hooks: [NodeKey: ParameterHooks]
        /// The resolved hot-path hooks per dense index.
        var valueObservers: [ImplementorValueObserver?]
        var valueProviders: [ImplementorValueProvider?]
    }

    let state: Mutex<State>
    /// The group index of each parameter's parent, or -1 at the top level.
    let parameterParents: [Int]
    /// The group index of each group's parent, or -1 at the top level.
    let groupParents: [Int]

    init(defaults: [ParameterValue], parameterParents: [Int], groupParents: [Int]) {
        let count = defaults.count
        self.parameterParents = parameterParents
        self.groupParents = groupParents
        state = Mutex(
            State(
                values: defaults, direct: Array(repeating: [], count: count), broad: [], homes: [:], hooks: [:],
                valueObservers: Array(repeating: nil, count: count), valueProviders: Array(repeating: nil, count: count)
            ))
    }

    // MARK: Values

    func value(at index: Int) -> ParameterValue {
        state.withLock { $0.values[index] }
    }

    func provider(at index: Int) -> ImplementorValueProvider? {
        state.withLock { $0.valueProviders[index] }
    }

    func store(_ value: ParameterValue, at index: Int) {
        state.withLock { $0.values[index] = value }
    }

    /// Writes an already clamped value and tells the observers.
    @inline(__always)
    func apply(
        _ applied: ParameterValue, to parameter: Parameter, originator: ParameterObserverToken?,
        eventType: AutomationEventType
    ) -> ParameterSetResult {
        let index = parameter.index
        let (old, direct, broad, implementor) = state.withLock {
            state -> (ParameterValue, [ObserverBox], [ObserverBox], ImplementorValueObserver?) in
            let old = state.values[index]
            if old == applied && eventType == .value { return (old, [], [], nil) }
            state.values[index] = applied
            return (old, state.direct[index], state.broad, state.valueObservers[index])
        }
        let changed = old != applied
        if !changed && eventType == .value { return .unchanged(applied) }
        if changed, let implementor { implementor(parameter, applied) }
        let change = ParameterChange(parameter: parameter, value: applied, eventType: eventType, originator: originator)
        for box in direct where box.token != originator && box.active.load(ordering: .acquiring) {
            box.callback(change)
        }
        for box in broad
        where box.range.contains(index) && box.token != originator && box.active.load(ordering: .acquiring) {
            box.callback(change)
        }
        return changed ? .changed(from: old, to: applied) : .unchanged(applied)
    }

    func snapshotValues() -> [ParameterValue] {
        state.withLock { $0.values }
    }

    // MARK: Observers

    func addObserver(
        range: Range<Int>, single: Bool, callback: @escaping @Sendable (ParameterChange) -> Void
    ) -> ParameterObserverToken {
        let token = ParameterObserverToken.unique()
        let box = ObserverBox(token: token, range: range, callback: callback)
        state.withLock { state in
            if single {
                state.direct[range.lowerBound].append(box)
                state.homes[token] = range.lowerBound
            } else {
                state.broad.append(box)
                state.homes[token] = -1
            }
        }
        return token
    }

    func removeObserver(_ token: ParameterObserverToken) {
        let box: ObserverBox? = state.withLock { state in
            guard let home = state.homes.removeValue(forKey: token) else { return nil }
            if home >= 0 {
                guard let position = state.direct[home].firstIndex(where: { $0.token == token }) else { return nil }
                return state.direct[home].remove(at: position)
            }
            guard let position = state.broad.firstIndex(where: { $0.token == token }) else { return nil }
            return state.broad.remove(at: position)
        }
        box?.active.store(false, ordering: .releasing)
    }

    var observerCount: Int {
        state.withLock { $0.homes.count }
    }

    // MARK: Hooks

    func hooks(for key: NodeKey) -> ParameterHooks {
        state.withLock { $0.hooks[key] ?? ParameterHooks() }
    }

    func updateHooks(for key: NodeKey, _ body: (inout ParameterHooks) -> Void) {
        state.withLock { state in
            var hooks = state.hooks[key] ?? ParameterHooks()
            body(&hooks)
            state.hooks[key] = hooks
            for index in state.values.indices {
                state.valueObservers[index] = resolve(index, in: state.hooks) { $0.valueObserver }
                state.valueProviders[index] = resolve(index, in: state.hooks) { $0.valueProvider }
            }
        }
    }

    /// The hook of the nearest node (the parameter, its groups upwards, then the tree) that has one.
    func resolvedHook<Hook>(forParameter index: Int, _ pick: (ParameterHooks) -> Hook?) -> Hook? {
        let hooks = state.withLock { $0.hooks }
        return resolve(index, in: hooks, pick)
    }

    func resolvedHook<Hook>(forGroup index: Int, _ pick: (ParameterHooks) -> Hook?) -> Hook? {
        let hooks = state.withLock { $0.hooks }
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
