import Parameters

/// An on/off control bound to a (boolean) parameter.
///
/// Values of 0.5 and above read as on; on writes 1 and off writes 0. Constructing the state
/// reads the parameter and never writes it.
public struct ToggleFeature: Reducer {
    /// A toggle's state.
    public struct State: Sendable, Equatable {
        /// Whether the toggle is on.
        public var isOn: Bool
        /// The bound parameter, or `nil`.
        public let parameterReference: ParameterReference?
        /// The label.
        public var displayName: String
        /// The token of the toggle's observer while it observes its parameter.
        public var observerToken: ParameterObserverToken?
        /// The identifier of the observation effect; `nil` without a parameter.
        public let valueObservationCancelID: String?

        /// Creates the state of a toggle bound to `parameter`, showing its current value.
        public init(parameter: Parameter) {
            isOn = ToggleFeature.isOn(parameter.value)
            parameterReference = ParameterReference(parameter)
            displayName = parameter.displayName
            valueObservationCancelID = "valueObservationCancelId[Parameter: \(parameter.address)]"
        }

        /// Creates the state of a toggle without a parameter.
        public init(isOn: Bool, displayName: String) {
            self.isOn = isOn
            self.displayName = displayName
            parameterReference = nil
            valueObservationCancelID = nil
        }

        /// The bound parameter, or `nil`.
        public var parameter: Parameter? {
            parameterReference?.parameter
        }
    }

    /// What happened to a toggle.
    public enum Action: Sendable, Equatable {
        /// The owner set the toggle.
        case setValue(Bool)
        /// The user tapped the toggle into this state.
        case toggleTapped(Bool)
        /// The toggle appeared: start observing.
        case task
        /// The toggle went away: stop observing.
        case stopValueObservation
        /// The parameter changed elsewhere.
        case valueChanged(ParameterValue)
    }

    /// Creates the toggle reducer.
    public init() {}

    /// Whether a parameter value reads as on: 0.5 and above.
    public static func isOn(_ value: ParameterValue) -> Bool {
        value >= 0.5
    }

    /// The parameter value for a toggle state: 1 for on, 0 for off.
    public static func value(for isOn: Bool) -> ParameterValue {
        isOn ? 1 : 0
    }

    /// Applies the toggle's actions.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .setValue(let isOn), .toggleTapped(let isOn):
            state.isOn = isOn
            state.parameter?.setValue(Self.value(for: isOn), originator: state.observerToken, eventType: .value)
            return .none
        case .valueChanged(let value):
            state.isOn = Self.isOn(value)
            return .none
        case .task:
            guard let parameter = state.parameter, let cancelID = state.valueObservationCancelID else {
                return .none
            }
            if let previous = state.observerToken {
                parameter.removeParameterObserver(previous)
            }
            let relay = ObservationRelay<ParameterValue>()
            let token = parameter.token { change in
                guard change.eventType == .value else { return }
                relay.deliver(change.value)
            }
            state.observerToken = token
            return .subscribe { send in
                relay.attach { value in send(.valueChanged(value)) }
                return Cancellation {
                    relay.detach()
                    parameter.removeParameterObserver(token)
                }
            }
            .cancellable(id: cancelID, cancelInFlight: true)
        case .stopValueObservation:
            if let token = state.observerToken {
                state.parameter?.removeParameterObserver(token)
                state.observerToken = nil
            }
            guard let cancelID = state.valueObservationCancelID else { return .none }
            return .cancel(id: cancelID)
        }
    }
}
