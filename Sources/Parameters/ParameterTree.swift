/// A tree of parameter groups and parameters, with their values and observers.
///
/// The structure is immutable once built; values and implementor hooks change. Build a tree
/// from descriptions (``init(children:)``), from a tree file (``init(jsonData:)``), or take the
/// embedded demo tree (``makeDefault()``).
public final class ParameterTree: Sendable {
    /// The most levels of groups a tree may have.
    public static let maximumDepth = 16
    /// The most nodes (groups and parameters) a tree may have.
    public static let maximumNodeCount = 10_000
    /// The most value strings a parameter may have.
    public static let maximumValueStrings = 4_096
    /// The most characters in a name, a short name or a value string.
    public static let maximumNameLength = 256
    /// Identifiers that PROTOCOL.md §2 reserves at every level (the facets of a parameter's address).
    public static let reservedIdentifiers: Set<String> = ["raw", "str", "touch", "z", "reset", "get", "info"]
    /// Identifiers that PROTOCOL.md §2 reserves at the top level.
    public static let reservedTopLevelIdentifiers: Set<String> = ["sys", "wave"]

    /// The top-level nodes, in order.
    public let children: [ParameterNode]
    /// Every parameter, depth first; a parameter's ``Parameter/index`` is its position here.
    public let allParameters: [Parameter]
    /// Every group, depth first; a group's ``ParameterGroup/index`` is its position here.
    public let allGroups: [ParameterGroup]
    /// The descriptions the tree was built from.
    public let specs: [ParameterNodeSpec]

    let storage: ParameterStorage
    private let indexByAddress: [ParameterAddress: Int]
    private let indexByOSCAddress: [String: Int]
    private let nodeByKeyPath: [String: ParameterNode]

    /// Builds a tree from descriptions, checking them like a tree file.
    ///
    /// Every value starts at its parameter's default.
    /// - Throws: ``ParameterTreeError`` naming the first offending node.
    public init(children specs: [ParameterNodeSpec]) throws(ParameterTreeError) {
        var layout = TreeLayout()
        try layout.check(specs)
        let storage = ParameterStorage(
            defaults: layout.parameters.map(\.spec.defaultValue), parameterParents: layout.parameters.map(\.parent),
            groupParents: layout.groups.map(\.parent))
        var builder = TreeBuilder(layout: layout, storage: storage)
        children = builder.build(specs, prefix: "")
        allParameters = builder.parameters
        allGroups = builder.groups.map { $0! }
        self.specs = specs
        self.storage = storage
        var byAddress: [ParameterAddress: Int] = [:]
        var byOSC: [String: Int] = [:]
        var byKeyPath: [String: ParameterNode] = [:]
        for parameter in allParameters {
            byAddress[parameter.address] = parameter.index
            byOSC[parameter.oscAddress] = parameter.index
            byKeyPath[parameter.keyPath] = .parameter(parameter)
        }
        for group in allGroups { byKeyPath[group.keyPath] = .group(group) }
        indexByAddress = byAddress
        indexByOSCAddress = byOSC
        nodeByKeyPath = byKeyPath
    }

    // MARK: Lookup

    /// The parameter with this address, or `nil`.
    /// - Complexity: O(1).
    public func parameter(withAddress address: ParameterAddress) -> Parameter? {
        indexByAddress[address].map { allParameters[$0] }
    }

    /// The parameter at this key path (`"knob.gain"`), or `nil`.
    /// - Complexity: O(1).
    public func parameter(forKeyPath keyPath: String) -> Parameter? {
        nodeByKeyPath[keyPath]?.parameter
    }

    /// The group or parameter at this key path, or `nil`.
    public func node(forKeyPath keyPath: String) -> ParameterNode? {
        nodeByKeyPath[keyPath]
    }

    /// The parameter at this OSC address without root prefix (`"/knob/gain"`), or `nil`.
    /// - Complexity: O(1) (a hash of the address).
    public func parameter(forOSCAddress oscAddress: String) -> Parameter? {
        indexByOSCAddress[oscAddress].map { allParameters[$0] }
    }

    // MARK: Observers

    /// Adds an observer of every parameter of the tree.
    public func token(
        byAddingParameterObserver observer: @escaping @Sendable (ParameterChange) -> Void
    ) -> ParameterObserverToken {
        storage.addObserver(range: 0..<allParameters.count, single: false, callback: observer)
    }

    /// Removes an observer added to any node of the tree. Unknown tokens are ignored.
    public func removeParameterObserver(_ token: ParameterObserverToken) {
        storage.removeObserver(token)
    }

    /// The number of observers on all nodes of the tree.
    public var observerCount: Int { storage.observerCount }

    // MARK: Values

    /// Every value, in ``allParameters`` order, read at one instant.
    public func snapshotValues() -> [ParameterValue] {
        storage.snapshotValues()
    }

    /// Returns every parameter to its default.
    public func resetAll(originator: ParameterObserverToken? = nil) {
        for parameter in allParameters { parameter.reset(originator: originator) }
    }

    // MARK: Hooks

    /// Receives every change of every parameter unless a nearer node has its own.
    public var implementorValueObserver: ImplementorValueObserver? {
        get { storage.hooks(for: .tree).valueObserver }
        set { storage.updateHooks(for: .tree) { $0.valueObserver = newValue } }
    }

    /// Supplies values when they are read.
    public var implementorValueProvider: ImplementorValueProvider? {
        get { storage.hooks(for: .tree).valueProvider }
        set { storage.updateHooks(for: .tree) { $0.valueProvider = newValue } }
    }

    /// Formats values for display.
    public var implementorStringFromValueCallback: ImplementorStringFromValue? {
        get { storage.hooks(for: .tree).stringFromValue }
        set { storage.updateHooks(for: .tree) { $0.stringFromValue = newValue } }
    }

    /// Parses display text.
    public var implementorValueFromStringCallback: ImplementorValueFromString? {
        get { storage.hooks(for: .tree).valueFromString }
        set { storage.updateHooks(for: .tree) { $0.valueFromString = newValue } }
    }

    /// Gives names by length.
    public var implementorDisplayNameWithLengthCallback: ImplementorDisplayNameWithLength? {
        get { storage.hooks(for: .tree).displayNameWithLength }
        set { storage.updateHooks(for: .tree) { $0.displayNameWithLength = newValue } }
    }
}
