extension KnobFeature {
    /// What happened to a knob.
    public enum Action: Sendable, Equatable {
        /// Something happened to the arc.
        case track(TrackFeature.Action)
        /// Something happened to the title.
        case title(TitleFeature.Action)
        /// The owner set a value: clamp, write, show it and move the arc.
        case setValue(Double)
        /// The owner set a value without showing it in the title.
        case setValueSilently(Double)
        /// The parameter changed elsewhere (delivered by the observer, debounced). While the knob
        /// is held the value is kept aside and shown when the gesture ends.
        case valueChanged(Double)
        /// A key or wheel notch moved the knob to this norm: a gesture of steps that ends
        /// ``KnobConfig/stepGestureDuration`` after the last one.
        case stepped(toNorm: Double)
        /// The step gesture's time ran out.
        case stepGestureTimedOut
        /// The user asked for the parameter's default value (double click, `d`).
        case resetRequested
        /// The parameter client wrote this (sent back by the write effect).
        case parameterWritten(ParameterWrite)
        /// The user typed in the value editor.
        case editorTextChanged(String)
        /// The value editor closed with a text (OK) or `nil` (Cancel).
        case editorDismissed(String?)
        /// The knob appeared: keep the theme and start observing the parameter.
        case task(Theme)
        /// The knob went away: stop observing.
        case stopValueObservation
        /// A surface should scroll to this knob (or to nothing).
        case performScrollTo(UInt64?)
    }
}
