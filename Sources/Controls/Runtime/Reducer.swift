/// A feature's logic: how an action changes the state, and what work follows.
///
/// A reducer is a value with no state of its own; the store owns the state and runs the returned
/// ``Effect``. Parent features run their children first, then their own logic, so that the parent
/// sees the children's updated state.
public protocol Reducer<State, Action>: Sendable {
    /// The feature's state.
    associatedtype State: Sendable
    /// What can happen to the feature.
    associatedtype Action: Sendable

    /// Applies `action` to `state` and returns the work to run afterwards.
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}
