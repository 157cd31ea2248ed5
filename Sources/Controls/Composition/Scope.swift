/// Runs a child reducer on a part of the parent's state, for the parent actions that carry a
/// child action (TCA's `Scope`).
///
/// Without case paths, the action's case is given as a pair of functions: `extract` finds the
/// child action in a parent action, `embed` wraps a child action the child's effects send.
public struct Scope<ParentState: Sendable, ParentAction: Sendable, Child: Reducer>: Sendable {
    private let state: WritableKeyPath<ParentState, Child.State> & Sendable
    private let extract: @Sendable (ParentAction) -> Child.Action?
    private let embed: @Sendable (Child.Action) -> ParentAction
    private let child: Child

    /// Scopes `child` to the state at `state` and the actions that `extract` finds.
    public init(
        state: WritableKeyPath<ParentState, Child.State> & Sendable,
        extract: @escaping @Sendable (ParentAction) -> Child.Action?,
        embed: @escaping @Sendable (Child.Action) -> ParentAction,
        child: Child
    ) {
        self.state = state
        self.extract = extract
        self.embed = embed
        self.child = child
    }

    /// Runs the child when `action` is one of its actions; otherwise does nothing.
    public func reduce(into parent: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
        guard let childAction = extract(action) else { return .none }
        return child.reduce(into: &parent[keyPath: state], action: childAction).map(embed)
    }
}
