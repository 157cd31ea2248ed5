/// How a person is holding a knob: the parameter is touched for as long as this lasts.
public enum KnobGesture: Sendable, Equatable {
    /// A pointer drag: it ends with ``TrackFeature/Action/dragEnded(_:)``.
    case drag
    /// Keys or a wheel: it ends ``KnobConfig/stepGestureDuration`` after the last step.
    case steps
}
