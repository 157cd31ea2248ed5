extension ScrubberFeature {
    /// What happened to a scrubber.
    public enum Action: Sendable, Equatable {
        /// Layout gave the scrubber its width, in points (the pointer's unit).
        case laidOut(width: Double)
        /// The bars arrived (or changed, for a new bar count).
        case barsLoaded([Float])
        /// Playback moved on, 0…1; not shown while a drag is on.
        case playbackProgressed(Double)
        /// A finger or pointer went down at `x` from the left edge and started dragging.
        case dragStarted(x: Double)
        /// The dragging pointer moved to `x`.
        case dragMoved(x: Double)
        /// The dragging pointer was lifted at `x`: seek there.
        case dragEnded(x: Double)
        /// The system took the gesture away (a call, a scroll view): forget the drag, no seek.
        case dragCancelled
        /// A tap (or click) at `x` without a drag: seek there.
        case tapped(x: Double)
        /// VoiceOver's swipe up (or a key): seek forward by ``ScrubberFeature/accessibilityStep``.
        case accessibilityIncremented
        /// VoiceOver's swipe down: seek back by ``ScrubberFeature/accessibilityStep``.
        case accessibilityDecremented
        /// What the scrubber tells its owner.
        case delegate(Delegate)

        /// What a scrubber asks of its owner (the player).
        public enum Delegate: Sendable, Equatable {
            /// Seek playback to this progress, 0…1.
            case seekRequested(Double)
            /// The dragging finger entered the bar at this index: a moment for a haptic tick.
            case dragCrossedBar(Int)
        }
    }
}
