/// One change delivered to an observer.
public struct ParameterChange: Sendable {
    /// The parameter whose value changed (or was touched or released).
    public let parameter: Parameter
    /// The value after the change, in the parameter's own units.
    public let value: ParameterValue
    /// The automation event type.
    public let eventType: AutomationEventType
    /// The token passed by whoever made the change, or `nil`.
    public let originator: ParameterObserverToken?

    /// The parameter's address.
    public var address: ParameterAddress { parameter.address }
}
