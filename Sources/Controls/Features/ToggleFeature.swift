import Parameters

/// An on/off control bound to a (boolean) parameter.
///
/// Values of 0.5 and above read as on; on writes 1 and off writes 0. Constructing the state
/// reads the parameter and never writes it. Like the knob, the reducer is pure: writes are
/// effects of its ``ParameterClient`` and come back as ``Action/parameterWritten(_:)``.
public struct ToggleFeature: Reducer {
    /// A toggle's state.
    public struct State: Sendable, Equatable, Identifiable {
        /// The parameter's address unless given, or the given identifier.
        public let id: UInt64
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
        ///
        /// - Parameters:
        ///   - parameter: the parameter to bind.
        ///   - id: the toggle's identifier; the parameter's address by default.
        public init(parameter: Parameter, id: UInt64? = nil) {
            self.id = id ?? parameter.address
            isOn = ToggleFeature.isOn(parameter.value)
            parameterReference = ParameterReference(parameter)
            displayName = parameter.displayName
            valueObservationCancelID = "valueObservationCancelId[Parameter: \(parameter.address)]"
        }

        /// Creates the state of a toggle without a parameter.
        public init(isOn: Bool, displayName: String, id: UInt64 = 0) {
            self.id = id
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
        /// The parameter client wrote this (sent back by the write effect).
        case parameterWritten(ParameterWrite)
    }

    /// How the toggle writes its parameter.
    public var parameters: ParameterClient

    /// Creates the toggle reducer.
    public init(parameters: ParameterClient = .live) {
        self.parameters = parameters
    }

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
            guard let parameter = state.parameter else { return .none }
            let request = ParameterWrite(
                parameter: parameter, value: Self.value(for: isOn), eventType: .value, originator: state.observerToken)
            let client = parameters
            return .perform { client.write(request) ? .parameterWritten(request) : nil }
        case .valueChanged(let value):
            state.isOn = Self.isOn(value)
            return .none
        case .parameterWritten:
            return .none
        case .task:
            guard let parameter = state.parameter, let cancelID = state.valueObservationCancelID else {
                return .none
            }
            let token = parameters.makeObserverToken()
            state.observerToken = token
            return ParameterObservation.start(parameter, token: token, cancelID: cancelID) {
                (send: Send<Action>, value) in send(.valueChanged(value))
            }
        case .stopValueObservation:
            return ParameterObservation.stop(token: &state.observerToken, cancelID: state.valueObservationCancelID)
        }
    }
}
