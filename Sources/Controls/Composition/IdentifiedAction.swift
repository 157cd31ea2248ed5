/// An action of one element of an ``IdentifiedArray``, addressed by its identifier (TCA's
/// `IdentifiedAction`).
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
    /// `action` happened to the element with `id`.
    case element(id: ID, action: Action)
}

extension IdentifiedAction: Equatable where Action: Equatable {}
