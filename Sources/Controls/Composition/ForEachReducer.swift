/// Runs an element reducer on the element of an ``IdentifiedArray`` that an action names by
/// identifier (TCA's `forEach`).
///
/// Each element's effect identifiers are scoped by its identifier, so that two elements (two
/// knobs on one parameter) never cancel each other's timers. An action for an identifier that is
/// not in the collection does nothing.
public struct ForEachReducer<ParentState: Sendable, ParentAction: Sendable, Element: Reducer>: Sendable
where Element.State: Identifiable, Element.State.ID: Sendable {
    /// An element's identifier.
    public typealias ID = Element.State.ID

    private let elements: WritableKeyPath<ParentState, IdentifiedArray<Element.State>> & Sendable
    private let extract: @Sendable (ParentAction) -> IdentifiedAction<ID, Element.Action>?
    private let embed: @Sendable (IdentifiedAction<ID, Element.Action>) -> ParentAction
    private let element: Element
    private let scope: String

    /// Runs `element` on the collection at `elements`.
    ///
    /// - Parameters:
    ///   - elements: where the collection is in the parent's state.
    ///   - extract: finds an element action in a parent action.
    ///   - embed: wraps an element action that an element's effects send.
    ///   - scope: a name that keeps this collection's effect identifiers apart from another's.
    ///   - element: the element's reducer.
    public init(
        elements: WritableKeyPath<ParentState, IdentifiedArray<Element.State>> & Sendable,
        extract: @escaping @Sendable (ParentAction) -> IdentifiedAction<ID, Element.Action>?,
        embed: @escaping @Sendable (IdentifiedAction<ID, Element.Action>) -> ParentAction,
        scope: String,
        element: Element
    ) {
        self.elements = elements
        self.extract = extract
        self.embed = embed
        self.scope = scope
        self.element = element
    }

    /// Runs the element that `action` names; does nothing for other actions.
    public func reduce(into parent: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
        guard case .element(let id, let elementAction)? = extract(action) else { return .none }
        return reduce(into: &parent, id: id, action: elementAction)
    }

    /// Runs `action` on the element with `id`, if there is one.
    public func reduce(into parent: inout ParentState, id: ID, action: Element.Action) -> Effect<ParentAction> {
        let effect = parent[keyPath: elements].modify(id: id) { element.reduce(into: &$0, action: action) }
        guard let effect else { return .none }
        let embed = self.embed
        return effect.scoped(ScopeKey(scope: scope, id: id)).map { embed(.element(id: id, action: $0)) }
    }

    /// Runs `action` on every element in order and merges their effects.
    public func reduceAll(into parent: inout ParentState, action: Element.Action) -> Effect<ParentAction> {
        .merge(parent[keyPath: elements].ids.map { reduce(into: &parent, id: $0, action: action) })
    }

    private struct ScopeKey: Hashable, Sendable {
        var scope: String
        var id: ID
    }
}
