/// A control to draw in a group.
public enum ControlItem: Sendable, Equatable {
    /// A knob, drawn from its state.
    case knob(KnobFeature.State)
    /// A toggle, drawn from its state.
    case toggle(ToggleFeature.State)
}
