import Parameters

/// The OSCQuery namespace of a parameter tree (PROTOCOL.md section 7): what `GET /` answers,
/// node by node, with the values read from the tree when asked.
///
/// Every group is a container (`FULL_PATH`, `ACCESS` 0, `DESCRIPTION`, `CONTENTS`); every
/// parameter a method of `TYPE` `"f"` whose `VALUE` is its normalised value, `RANGE` 0…1, with
/// `ACCESS` 3 (1 when read-only), `CLIPMODE` `"both"`, its display name as `DESCRIPTION`, the
/// OSCQuery name of its unit as `UNIT` where there is one (`ParameterUnit.oscQueryUnit`),
/// and `EXTENDED_TYPE` `"boolean"` or `"indexed"` for those units. An indexed parameter's range
/// also has `VALS`: the normalised position of each of its steps. With a root prefix
/// (`--root /inst1`) every path starts with it, and `/` holds one container per segment of the
/// prefix (`/inst1`), so that the namespace's root is still `/`. `/sys` and `/wave` are not in it.
///
/// Everything but the values is laid out once, in ``init(tree:rootPrefix:)``: the JSON text of
/// the whole namespace is kept as one template with a slot for each value, and each node's JSON
/// is a contiguous piece of it. Answering copies the template and writes the current values in
/// the slots, so a `GET /` costs one copy and one number per parameter.
///
/// The namespace is immutable and `Sendable`; the values it writes are read from the tree at
/// the moment of the call (`Parameter.normalizedValue`, which asks the tree's value
/// provider if one is set).
public final class OSCQueryNamespace: Sendable {
    /// The tree whose namespace this is.
    public let tree: ParameterTree
    /// The root prefix, `""` or a path like `/inst1` without a trailing `/`.
    public let rootPrefix: String

    let nodes: [OSCQueryNode]
    let template: [UInt8]
    let slots: [OSCQueryValueSlot]
    private let indexByPath: [String: Int]

    /// Builds the namespace of `tree` under `rootPrefix`.
    ///
    /// - Parameters:
    ///   - tree: the parameter tree.
    ///   - rootPrefix: `""`, or the `--root` (`/inst1`, `/studio/inst1`); empty segments and a
    ///     trailing `/` are ignored. The server checks the prefix; the namespace takes it as given.
    /// - Complexity: O(n) in the size of the namespace's JSON.
    public init(tree: ParameterTree, rootPrefix: String = "") {
        let segments = rootPrefix.split(separator: "/").map(String.init)
        self.tree = tree
        self.rootPrefix = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        var builder = OSCQueryNamespaceBuilder(tree: tree, prefixSegments: segments)
        builder.build()
        nodes = builder.nodes
        template = builder.writer.bytes
        slots = builder.slots
        var byPath: [String: Int] = [:]
        for (index, node) in nodes.enumerated() { byPath[node.path] = index }
        indexByPath = byPath
    }

    /// The attributes of `node` other than `VALUE` and `CONTENTS`, in the order they are written.
    func attributes(of node: OSCQueryNode) -> [(key: String, value: OSCQueryJSON)] {
        guard let parameter = node.parameter else {
            return OSCQueryNamespaceBuilder.containerAttributes(path: node.path, description: node.description)
        }
        return OSCQueryNamespaceBuilder.methodAttributes(of: tree.allParameters[parameter], path: node.path)
    }

    /// Every `FULL_PATH` of the namespace but `/`, depth first, each container before what it holds.
    public var paths: [String] {
        nodes.dropFirst().map(\.path)
    }

    /// Whether `path` names a node (a trailing `/` is ignored).
    public func contains(path: String) -> Bool {
        nodeIndex(for: path) != nil
    }

    /// Whether `path` names a container (`/`, a prefix segment or a group).
    public func isContainer(path: String) -> Bool {
        nodeIndex(for: path).map { nodes[$0].isContainer } ?? false
    }

    /// The parameters a `LISTEN` of `path` covers, as positions in the tree's
    /// `ParameterTree.allParameters`: a parameter's path gives that parameter, a
    /// container's (`/knob`, a prefix such as `/inst1`, or `/`) every parameter below it, which
    /// are contiguous; an unknown path gives `nil`. The path carries the root prefix, as every
    /// path of the namespace does.
    /// - Complexity: O(1) (a hash of the path).
    public func parameterIndices(listeningTo path: String) -> Range<Int>? {
        nodeIndex(for: path).map { nodes[$0].parameterRange }
    }

    /// The JSON text of the node at `path` with the current values, or `nil` for an unknown path.
    /// - Complexity: O(n) in the size of the node's JSON.
    public func json(at path: String) -> [UInt8]? {
        guard let index = nodeIndex(for: path) else { return nil }
        var writer = OSCQueryJSONWriter()
        render(bytes: nodes[index].bytes, slots: nodes[index].slots, into: &writer)
        return writer.bytes
    }

    func nodeIndex(for path: String) -> Int? {
        if let index = indexByPath[path] { return index }
        guard path.count > 1, path.hasSuffix("/"), !path.hasSuffix("//") else { return nil }
        return indexByPath[String(path.dropLast())]
    }

    /// Appends the template's `bytes` to `writer`, with the current value in each of `slots`.
    func render(bytes: Range<Int>, slots slotRange: Range<Int>, into writer: inout OSCQueryJSONWriter) {
        writer.bytes.reserveCapacity(writer.bytes.count + bytes.count + slotRange.count * 12)
        var cursor = bytes.lowerBound
        let parameters = tree.allParameters
        template.withUnsafeBufferPointer { template in
            for slot in slots[slotRange] {
                writer.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: template[cursor..<slot.offset]))
                writer.write(float: Float(parameters[slot.parameter].normalizedValue))
                cursor = slot.offset
            }
            writer.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: template[cursor..<bytes.upperBound]))
        }
    }
}
