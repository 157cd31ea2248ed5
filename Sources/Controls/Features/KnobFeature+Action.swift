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
        /// The parameter changed elsewhere (delivered by the observer, debounced).
        case valueChanged(Double)
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
