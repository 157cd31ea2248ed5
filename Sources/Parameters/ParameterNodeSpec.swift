/// A parameter or a group description: a node of a tree to be built.
public enum ParameterNodeSpec: Sendable, Hashable {
    case parameter(ParameterSpec)
    case group(ParameterGroupSpec)

    /// The node's identifier.
    public var identifier: String {
        switch self {
        case .parameter(let spec): spec.identifier
        case .group(let spec): spec.identifier
        }
    }

    /// A group description (shorthand for `.group(ParameterGroupSpec(…))`).
    public static func group(
        _ identifier: String, _ displayName: String, _ children: [ParameterNodeSpec]
    ) -> ParameterNodeSpec {
        .group(ParameterGroupSpec(identifier: identifier, displayName: displayName, children: children))
    }
}
