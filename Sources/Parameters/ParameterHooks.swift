/// Receives every change of a parameter, including changes tagged with an observer token.
public typealias ImplementorValueObserver = @Sendable (Parameter, ParameterValue) -> Void
/// Supplies a parameter's current value when it is read; the tree stores the result.
public typealias ImplementorValueProvider = @Sendable (Parameter) -> ParameterValue
/// Formats a value (`nil`: the current value) for display.
public typealias ImplementorStringFromValue = @Sendable (Parameter, ParameterValue?) -> String
/// Parses display text to a value, or `nil` when it does not parse.
public typealias ImplementorValueFromString = @Sendable (Parameter, String) -> ParameterValue?
/// Gives a node's name to fit in at most the given number of characters.
public typealias ImplementorDisplayNameWithLength = @Sendable (ParameterNode, Int) -> String

/// The implementor hooks set on one node; a parameter uses the nearest node's hook.
struct ParameterHooks: Sendable {
    var valueObserver: ImplementorValueObserver?
    var valueProvider: ImplementorValueProvider?
    var stringFromValue: ImplementorStringFromValue?
    var valueFromString: ImplementorValueFromString?
    var displayNameWithLength: ImplementorDisplayNameWithLength?
}
