/// A node of a built tree: a parameter or a group.
public enum ParameterNode: Sendable {
    case parameter(Parameter)
    case group(ParameterGroup)

    /// The node's identifier.
    public var identifier: String {
        switch self {
        case .parameter(let parameter): parameter.identifier
        case .group(let group): group.identifier
        }
    }

    /// The identifiers from the top level down, joined with ".".
    public var keyPath: String {
        switch self {
        case .parameter(let parameter): parameter.keyPath
        case .group(let group): group.keyPath
        }
    }

    /// The name shown to users.
    public var displayName: String {
        switch self {
        case .parameter(let parameter): parameter.displayName
        case .group(let group): group.displayName
        }
    }

    /// The parameter, if this node is one.
    public var parameter: Parameter? {
        if case .parameter(let parameter) = self { return parameter }
        return nil
    }

    /// The group, if this node is one.
    public var group: ParameterGroup? {
        if case .group(let group) = self { return group }
        return nil
    }
}
