import OSCCore
import Parameters

/// What a server said about its tree: `/sys/group`, `/sys/param` and `P/info` messages,
/// collected and then turned into the specs of a `ParameterTree`.
///
/// Pure data, so that a test can feed it messages. Every addition is bounded: at most
/// `maximumNodes` parameters and groups, strings no longer than the tree accepts, at most
/// `ParameterTree/maximumValueStrings` value strings a parameter; beyond that it throws
/// instead of growing.
struct RemoteListing {
    /// One `/sys/param`, completed by its `P/info` when that came.
    struct Entry: Equatable {
        var address: String
        var displayName: String
        var unitText: String
        var minValue: Float
        var maxValue: Float
        var defaultValue: Float
        var value: Float
        var taper: ParameterTaper?
        var flags: ParameterFlags?
        var valueStrings: [String] = []
    }

    let maximumNodes: Int
    /// Group names by address (`/knob` → `Knobs`).
    private(set) var groupNames: [String: String] = [:]
    /// The parameters in the server's order.
    private(set) var entries: [Entry] = []
    private var indexByAddress: [String: Int] = [:]

    init(maximumNodes: Int) {
        self.maximumNodes = min(maximumNodes, ParameterTree.maximumNodeCount)
    }

    /// The parameter index of a server address, or `nil`.
    func index(of address: String) -> Int? { indexByAddress[address] }

    /// Reads `/sys/group s address s displayName`.
    mutating func addGroup(_ message: OSCMessage) throws(RemoteListingError) {
        guard message.arguments.count >= 2, case .string(let address) = message.arguments[0],
            case .string(let name) = message.arguments[1]
        else { throw .malformed("/sys/group", "expected s address s displayName") }
        try checkRoom(adding: groupNames[address] == nil)
        groupNames[address] = try Self.bounded(name)
    }

    /// Names the group at `address` (an OSCQuery container's `DESCRIPTION`).
    mutating func addGroupName(_ address: String, _ name: String) throws(RemoteListingError) {
        try checkRoom(adding: groupNames[address] == nil)
        groupNames[address] = try Self.bounded(name)
    }

    /// Adds a parameter described some other way than by `/sys/param` (an OSCQuery method).
    mutating func add(_ entry: Entry) throws(RemoteListingError) {
        var entry = entry
        entry.address = try Self.bounded(entry.address)
        entry.displayName = try Self.bounded(entry.displayName)
        guard indexByAddress[entry.address] == nil else { throw .malformed(entry.address, "listed twice") }
        try checkRoom(adding: true)
        indexByAddress[entry.address] = entries.count
        entries.append(entry)
    }

    /// Reads `/sys/param s address s displayName s unit f min f max f default f value`.
    mutating func addParameter(_ message: OSCMessage) throws(RemoteListingError) {
        let arguments = message.arguments
        guard arguments.count >= 7, case .string(let address) = arguments[0],
            case .string(let name) = arguments[1], case .string(let unit) = arguments[2],
            let minValue = Self.number(arguments[3]), let maxValue = Self.number(arguments[4]),
            let defaultValue = Self.number(arguments[5]), let value = Self.number(arguments[6])
        else { throw .malformed("/sys/param", "expected s address s name s unit f min f max f default f value") }
        let entry = Entry(
            address: try Self.bounded(address), displayName: try Self.bounded(name), unitText: try Self.bounded(unit),
            minValue: minValue, maxValue: maxValue, defaultValue: defaultValue, value: value)
        if let index = indexByAddress[address] {
            // A server that lists a parameter twice: the last word counts, memory does not grow.
            entries[index] = entry
            return
        }
        try checkRoom(adding: true)
        indexByAddress[address] = entries.count
        entries.append(entry)
    }

    /// Reads `P/info s displayName s unit f min f max f default s taper i flags s…`; a second
    /// message for the same parameter (rule 9.14: a long list of value strings in parts) adds
    /// its value strings.
    /// - Returns: whether the message was the first description of a listed parameter.
    @discardableResult
    mutating func addInfo(_ message: OSCMessage) throws(RemoteListingError) -> Bool {
        guard message.address.hasSuffix("/info"),
            let index = indexByAddress[String(message.address.dropLast(5))]
        else { return false }
        let arguments = message.arguments
        guard arguments.count >= 7, case .string(let taperText) = arguments[5], case .int32(let bits) = arguments[6]
        else { throw .malformed(message.address, "expected s name s unit f min f max f default s taper i flags") }
        var strings: [String] = []
        for argument in arguments.dropFirst(7) {
            guard case .string(let text) = argument else { continue }
            strings.append(try Self.bounded(text))
        }
        let first = entries[index].flags == nil
        guard entries[index].valueStrings.count + strings.count <= ParameterTree.maximumValueStrings else {
            throw .tooLarge("more than \(ParameterTree.maximumValueStrings) value strings for \(message.address)")
        }
        entries[index].taper = ParameterTaper(rawValue: taperText) ?? .linear
        entries[index].flags = ParameterFlags(rawValue: UInt32(bitPattern: bits))
        entries[index].valueStrings += strings
        return first
    }

    /// The tree's descriptions: groups from the addresses' leading segments (named from
    /// `/sys/groups`, else by their identifier), parameters in the server's order, each with its
    /// position in that order as its address.
    func specs() throws(RemoteListingError) -> [ParameterNodeSpec] {
        let root = Node(path: "")
        for (index, entry) in entries.enumerated() {
            let segments = entry.address.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard entry.address.hasPrefix("/"), !segments.isEmpty, !segments.contains(where: \.isEmpty) else {
                throw .malformed(entry.address, "a parameter address is /group/…/identifier")
            }
            var node = root
            for segment in segments.dropLast() {
                node = node.child(String(segment))
                guard node.parameter == nil else { throw .malformed(entry.address, "\(node.path) is a parameter") }
            }
            let leaf = node.child(String(segments.last!))
            guard leaf.parameter == nil, leaf.children.isEmpty else {
                throw .malformed(entry.address, "listed twice, or both a parameter and a group")
            }
            leaf.parameter = index
        }
        return root.children.map { spec(of: $0) }
    }

    private func spec(of node: Node) -> ParameterNodeSpec {
        guard let index = node.parameter else {
            return .group(node.identifier, groupNames[node.path] ?? node.identifier, node.children.map { spec(of: $0) })
        }
        let entry = entries[index]
        let (unit, unitName) = ParameterUnit.remote(entry.unitText)
        var flags = entry.flags ?? [.readable, .writable]
        if let taper = entry.taper { flags.taper = taper }
        return .parameter(
            ParameterSpec(
                identifier: node.identifier, displayName: entry.displayName, address: ParameterAddress(index),
                minValue: entry.minValue, maxValue: entry.maxValue, defaultValue: entry.defaultValue, unit: unit,
                unitName: unitName, flags: flags, valueStrings: entry.valueStrings))
    }

    private func checkRoom(adding: Bool) throws(RemoteListingError) {
        guard adding else { return }
        guard groupNames.count + entries.count < maximumNodes else {
            throw .tooLarge("more than \(maximumNodes) parameters and groups")
        }
    }

    private static func bounded(_ text: String) throws(RemoteListingError) -> String {
        // Addresses are longer than names: a key path of 16 levels of names.
        guard text.utf8.count <= ParameterTree.maximumNameLength * ParameterTree.maximumDepth else {
            throw .tooLarge("a string of \(text.utf8.count) bytes")
        }
        return text
    }

    private static func number(_ argument: OSCArgument) -> Float? {
        switch argument {
        case .float32(let value): value
        case .double(let value): Float(value)
        case .int32(let value): Float(value)
        default: nil
        }
    }

    /// A node of the tree being rebuilt from addresses; children in the order first seen.
    private final class Node {
        let path: String
        var identifier: String { String(path.split(separator: "/").last ?? "") }
        var children: [Node] = []
        var childByName: [String: Node] = [:]
        var parameter: Int?

        init(path: String) {
            self.path = path
        }

        func child(_ name: String) -> Node {
            if let existing = childByName[name] { return existing }
            let node = Node(path: path + "/" + name)
            childByName[name] = node
            children.append(node)
            return node
        }
    }
}
