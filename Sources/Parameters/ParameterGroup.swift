/// A group of parameters and groups in a ``ParameterTree``.
public final class ParameterGroup: Sendable {
    /// Permanent identifier, unique among siblings.
    public let identifier: String
    /// The identifiers from the top level down, joined with ".".
    public let keyPath: String
    /// The name shown to users.
    public let displayName: String
    /// Shorter names for narrow places.
    public let shortNames: [String]
    /// The children, in order.
    public let children: [ParameterNode]
    /// The dense indexes of the parameters below this group (they are contiguous).
    public let parameterRange: Range<Int>
    /// The position of the group in ``ParameterTree/allGroups`` (depth-first order).
    public let index: Int

    let storage: ParameterStorage

    init(
        spec: ParameterGroupSpec, keyPath: String, children: [ParameterNode], parameterRange: Range<Int>, index: Int,
        storage: ParameterStorage
    ) {
        identifier = spec.identifier
        self.keyPath = keyPath
        displayName = spec.displayName
        shortNames = spec.shortNames
        self.children = children
        self.parameterRange = parameterRange
        self.index = index
        self.storage = storage
    }

    /// Every parameter below this group, depth first.
    public var allParameters: [Parameter] {
        children.flatMap { node -> [Parameter] in
            switch node {
            case .parameter(let parameter): [parameter]
            case .group(let group): group.allParameters
            }
        }
    }

    /// The child with this identifier, or `nil`.
    public func child(withIdentifier identifier: String) -> ParameterNode? {
        children.first { $0.identifier == identifier }
    }

    /// A name that fits in `length` characters (see ``Parameter/displayName(withLength:)``).
    public func displayName(withLength length: Int) -> String {
        if let hook = storage.resolvedHook(forGroup: index, { $0.displayNameWithLength }) {
            return hook(.group(self), length)
        }
        return Parameter.fit([displayName] + shortNames, length)
    }

    /// Adds an observer of every parameter below this group.
    public func token(
        byAddingParameterObserver observer: @escaping @Sendable (ParameterChange) -> Void
    ) -> ParameterObserverToken {
        storage.addObserver(range: parameterRange, single: false, callback: observer)
    }

    /// Removes an observer added to any node of this group's tree.
    public func removeParameterObserver(_ token: ParameterObserverToken) {
        storage.removeObserver(token)
    }

    /// Receives every change below this group, unless a nearer node has its own.
    public var implementorValueObserver: ImplementorValueObserver? {
        get { storage.hooks(for: .group(index)).valueObserver }
        set { storage.updateHooks(for: .group(index)) { $0.valueObserver = newValue } }
    }

    /// Supplies values of the parameters below this group when they are read.
    public var implementorValueProvider: ImplementorValueProvider? {
        get { storage.hooks(for: .group(index)).valueProvider }
        set { storage.updateHooks(for: .group(index)) { $0.valueProvider = newValue } }
    }

    /// Formats values of the parameters below this group.
    public var implementorStringFromValueCallback: ImplementorStringFromValue? {
        get { storage.hooks(for: .group(index)).stringFromValue }
        set { storage.updateHooks(for: .group(index)) { $0.stringFromValue = newValue } }
    }

    /// Parses text for the parameters below this group.
    public var implementorValueFromStringCallback: ImplementorValueFromString? {
        get { storage.hooks(for: .group(index)).valueFromString }
        set { storage.updateHooks(for: .group(index)) { $0.valueFromString = newValue } }
    }

    /// Gives names by length for this group and the nodes below it.
    public var implementorDisplayNameWithLengthCallback: ImplementorDisplayNameWithLength? {
        get { storage.hooks(for: .group(index)).displayNameWithLength }
        set { storage.updateHooks(for: .group(index)) { $0.displayNameWithLength = newValue } }
    }
}
