import Parameters

extension Parameter {
    /// The parameter's range, `minValue…maxValue`.
    public var range: ClosedRange<ParameterValue> {
        minValue...maxValue
    }

    /// Whether the value reads as on (0.5 and above), as a toggle reads it.
    public var boolValue: Bool {
        ToggleFeature.isOn(value)
    }
}
