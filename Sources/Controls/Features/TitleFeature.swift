import Parameters

/// The knob's title: shows the name, or the value for a while after it changes.
public struct TitleFeature: Reducer {
    /// The title's state.
    public struct State: Sendable, Equatable {
        /// The name shown when no value is.
        public var displayName: String
        /// Whether the knob is being dragged (the value stays up without a timer).
        public var dragActive = false
        /// The value being shown, or `nil` to show the name.
        public var formattedValue: String?
        /// The identifier of this title's revert timer, unique per knob.
        public let showValueCancelID: String
        /// How values are shown.
        public var formatter: ValueFormatter

        /// Creates a title state.
        ///
        /// - Parameters:
        ///   - displayName: the name to show.
        ///   - formatter: how to show values.
        ///   - id: the knob's identifier, which makes the timer's identifier unique.
        public init(displayName: String, formatter: ValueFormatter, id: UInt64) {
            self.displayName = displayName
            self.formatter = formatter
            self.showValueCancelID = "TitleFeature.showValue[\(id)]"
        }

        /// Whether the title shows a value rather than the name.
        public var showingValue: Bool {
            formattedValue != nil
        }

        /// The text to draw.
        public var text: String {
            formattedValue ?? displayName
        }
    }

    /// What happened to the title.
    public enum Action: Sendable, Equatable {
        /// The knob's value changed.
        case valueChanged(Double)
        /// A drag started (`true`) or ended (`false`).
        case dragActive(Bool)
        /// The user tapped the title (to edit the value).
        case titleTapped(Theme)
        /// The revert timer ran out.
        case valueDisplayTimerFired
    }

    /// The timings.
    public var config: KnobConfig

    /// Creates the title reducer.
    public init(config: KnobConfig = .default) {
        self.config = config
    }

    /// Shows values, runs the revert timer, and clears the value on a tap or when the timer fires.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .valueChanged(let value):
            state.formattedValue = state.formatter.forDisplay(value)
            return state.dragActive ? .none : revertTimer(state)
        case .dragActive(let active):
            state.dragActive = active
            // The value stays up while dragging: a timer started before the drag must not clear it.
            return active ? .cancel(id: state.showValueCancelID) : revertTimer(state)
        case .titleTapped, .valueDisplayTimerFired:
            state.formattedValue = nil
            return .cancel(id: state.showValueCancelID)
        }
    }

    private func revertTimer(_ state: State) -> Effect<Action> {
        .delayed(.valueDisplayTimerFired, by: config.showValueDuration)
            .cancellable(id: state.showValueCancelID, cancelInFlight: true)
    }
}
