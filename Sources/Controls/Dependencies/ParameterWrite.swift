import Parameters

/// One write of a control to its parameter: what a ``ParameterClient`` is asked to do, and what
/// the control hears back as a received action when it was done.
public struct ParameterWrite: Sendable, Equatable, CustomStringConvertible {
    /// The parameter written.
    public var parameter: ParameterReference
    /// The value, in the parameter's units.
    public var value: ParameterValue
    /// The automation event: a new value, or a gesture's touch or release.
    public var eventType: AutomationEventType
    /// The control's observer token, so that the control does not hear its own write.
    public var originator: ParameterObserverToken?

    /// Describes a write.
    public init(
        parameter: Parameter, value: ParameterValue, eventType: AutomationEventType,
        originator: ParameterObserverToken? = nil
    ) {
        self.parameter = ParameterReference(parameter)
        self.value = value
        self.eventType = eventType
        self.originator = originator
    }

    /// `keyPath@address value (event)`.
    public var description: String {
        "\(parameter) \(value) (\(eventType))"
    }
}
