/// The description of a group of parameters and groups.
public struct ParameterGroupSpec: Sendable, Hashable {
    /// Permanent identifier, `[A-Za-z0-9_-]+`, unique among siblings.
    public var identifier: String
    /// The name shown to users.
    public var displayName: String
    /// Shorter names for narrow places.
    public var shortNames: [String]
    /// The group's children, in order.
    public var children: [ParameterNodeSpec]

    /// Creates a group description.
    public init(
        identifier: String, displayName: String, children: [ParameterNodeSpec], shortNames: [String] = []
    ) {
        self.identifier = identifier
        self.displayName = displayName
        self.shortNames = shortNames
        self.children = children
    }
}
