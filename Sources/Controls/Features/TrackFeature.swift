import Parameters

/// The knob's arc: holds the norm, and turns gestures into norms.
public struct TrackFeature: Reducer {
    /// The track's state.
    public struct State: Sendable, Equatable {
        /// The position 0…1 along the arc.
        public var norm: Double
        /// The value ⇄ norm mapping of the knob's range.
        public var normValueTransform: NormValueTransform

        /// Creates a track state.
        public init(norm: Double = 0, normValueTransform: NormValueTransform) {
            self.norm = norm
            self.normValueTransform = normValueTransform
        }
    }

    /// What happened to the track.
    public enum Action: Sendable, Equatable {
        /// A drag began at the current norm.
        case dragStarted(Double)
        /// A drag moved the norm.
        case dragChanged(Double)
        /// A drag ended at the norm.
        case dragEnded(Double)
        /// The norm was set directly.
        case normChanged(Double)
        /// The value was set (it is clamped to the range).
        case valueChanged(Double)
        /// The track was tapped once or twice.
        case viewTapped(times: Int)

        /// The automation event that a parameter write for this action carries, or `nil` if it
        /// does not write.
        public var cause: AutomationEventType? {
            switch self {
            case .dragStarted: .touch
            case .dragChanged: .value
            case .dragEnded: .release
            case .normChanged, .valueChanged, .viewTapped: nil
            }
        }
    }

    /// Creates the track reducer.
    public init() {}

    /// Sets the norm for the four norm-carrying actions and the clamped norm of a value.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .dragStarted(let norm), .dragChanged(let norm), .dragEnded(let norm), .normChanged(let norm):
            state.norm = norm
        case .valueChanged(let value):
            state.norm = state.normValueTransform.valueToNorm(value)
        case .viewTapped:
            break
        }
        return .none
    }
}
