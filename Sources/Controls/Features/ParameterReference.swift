import Parameters

/// A parameter held by a feature's state, equal to another reference to the same instance.
///
/// `Parameter` is a class without value equality; states compare the instance they are bound to.
public struct ParameterReference: Sendable, Equatable, CustomStringConvertible {
    /// The parameter.
    public let parameter: Parameter

    /// Wraps a parameter.
    public init(_ parameter: Parameter) {
        self.parameter = parameter
    }

    /// Whether both refer to the same parameter instance.
    public static func == (lhs: ParameterReference, rhs: ParameterReference) -> Bool {
        lhs.parameter === rhs.parameter
    }

    /// The parameter's key path and address.
    public var description: String {
        "\(parameter.keyPath)@\(parameter.address)"
    }
}
