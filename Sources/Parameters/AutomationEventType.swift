/// The automation event type that accompanies a value change (AUParameterAutomationEventType).
public enum AutomationEventType: UInt32, Sendable, Hashable, CaseIterable {
    /// A new value.
    case value = 0
    /// A gesture begins (the user touched the control).
    case touch = 1
    /// A gesture ends (the user let go).
    case release = 2
}
