import Parameters

/// Lays out a namespace once: its nodes, depth first, and the JSON template with a slot per value.
struct OSCQueryNamespaceBuilder {
    private enum Child {
        case prefix(level: Int)
        case node(ParameterNode)
    }

    let tree: ParameterTree
    let prefixSegments: [String]
    var nodes: [OSCQueryNode] = []
    var writer = OSCQueryJSONWriter()
    var slots: [OSCQueryValueSlot] = []

    init(tree: ParameterTree, prefixSegments: [String]) {
        self.tree = tree
        self.prefixSegments = prefixSegments
    }

    mutating func build() {
        let all = 0..<tree.allParameters.count
        let top: [Child] = prefixSegments.isEmpty ? tree.children.map { .node($0) } : [.prefix(level: 0)]
        writeContainer(path: "/", description: nil, parameterRange: all, children: top)
    }

    private mutating func writeContainer(
        path: String, description: String?, parameterRange: Range<Int>, children: [Child]
    ) {
        let attributes = Self.containerAttributes(path: path, description: description)
        let index = nodes.count
        nodes.append(OSCQueryNode(path: path, parameter: nil, parameterRange: parameterRange, description: description))
        let start = writer.bytes.count
        let firstSlot = slots.count
        writer.bytes.append(UInt8(ascii: "{"))
        writeAttributes(attributes)
        writer.comma()
        writer.write(key: "CONTENTS")
        let contentsStart = writer.bytes.count
        writer.bytes.append(UInt8(ascii: "{"))
        for (position, child) in children.enumerated() {
            if position > 0 { writer.comma() }
            write(child, parentPath: path)
        }
        writer.bytes.append(UInt8(ascii: "}"))
        nodes[index].contentsBytes = contentsStart..<writer.bytes.count
        nodes[index].contentsSlots = firstSlot..<slots.count
        writer.bytes.append(UInt8(ascii: "}"))
        nodes[index].bytes = start..<writer.bytes.count
        nodes[index].slots = firstSlot..<slots.count
    }

    private mutating func write(_ child: Child, parentPath: String) {
        let base = parentPath == "/" ? "" : parentPath
        switch child {
        case .prefix(let level):
            let name = prefixSegments[level]
            writer.write(key: name)
            let next: [Child] =
                level + 1 < prefixSegments.count ? [.prefix(level: level + 1)] : tree.children.map { .node($0) }
            writeContainer(
                path: base + "/" + name, description: name, parameterRange: 0..<tree.allParameters.count, children: next
            )
        case .node(.group(let group)):
            writer.write(key: group.identifier)
            writeContainer(
                path: base + "/" + group.identifier, description: group.displayName,
                parameterRange: group.parameterRange, children: group.children.map { .node($0) })
        case .node(.parameter(let parameter)):
            writer.write(key: parameter.identifier)
            writeMethod(parameter, path: base + "/" + parameter.identifier)
        }
    }

    private mutating func writeMethod(_ parameter: Parameter, path: String) {
        let attributes = Self.methodAttributes(of: parameter, path: path)
        let index = nodes.count
        nodes.append(
            OSCQueryNode(
                path: path, parameter: parameter.index, parameterRange: parameter.index..<parameter.index + 1,
                description: nil))
        let start = writer.bytes.count
        let slot = slots.count
        writer.bytes.append(UInt8(ascii: "{"))
        // FULL_PATH and TYPE, then VALUE, then the rest: the order of the proposal's examples.
        writeAttributes(attributes[..<2])
        writer.comma()
        writer.write(key: "VALUE")
        writer.bytes.append(UInt8(ascii: "["))
        slots.append(OSCQueryValueSlot(offset: writer.bytes.count, parameter: parameter.index))
        writer.bytes.append(UInt8(ascii: "]"))
        writer.comma()
        writeAttributes(attributes[2...])
        writer.bytes.append(UInt8(ascii: "}"))
        nodes[index].bytes = start..<writer.bytes.count
        nodes[index].slots = slot..<slots.count
    }

    private mutating func writeAttributes(_ attributes: ArraySlice<(key: String, value: OSCQueryJSON)>) {
        for (position, attribute) in attributes.enumerated() {
            if position > 0 { writer.comma() }
            writer.write(key: attribute.key)
            writer.write(attribute.value)
        }
    }

    private mutating func writeAttributes(_ attributes: [(key: String, value: OSCQueryJSON)]) {
        writeAttributes(attributes[...])
    }

    /// A container's attributes but `CONTENTS`.
    static func containerAttributes(path: String, description: String?) -> [(key: String, value: OSCQueryJSON)] {
        var attributes: [(key: String, value: OSCQueryJSON)] = [("FULL_PATH", .string(path)), ("ACCESS", .int(0))]
        if let description { attributes.append(("DESCRIPTION", .string(description))) }
        return attributes
    }

    /// A method's attributes but `VALUE`: `FULL_PATH` and `TYPE` first.
    static func methodAttributes(of parameter: Parameter, path: String) -> [(key: String, value: OSCQueryJSON)] {
        var range: [(key: String, value: OSCQueryJSON)] = [("MIN", .int(0)), ("MAX", .int(1))]
        if let positions = stepPositions(of: parameter) { range.append(("VALS", .array(positions.map { .float($0) }))) }
        var attributes: [(key: String, value: OSCQueryJSON)] = [
            ("FULL_PATH", .string(path)), ("TYPE", .string("f")), ("RANGE", .array([.object(range)])),
            ("ACCESS", .int(parameter.isWritable ? 3 : 1)), ("CLIPMODE", .string("both")),
            ("DESCRIPTION", .string(parameter.displayName)),
        ]
        if let unit = parameter.unit.oscQueryUnit { attributes.append(("UNIT", .string(unit))) }
        switch parameter.unit {
        case .boolean: attributes.append(("EXTENDED_TYPE", .string("boolean")))
        case .indexed: attributes.append(("EXTENDED_TYPE", .string("indexed")))
        default: break
        }
        return attributes
    }

    /// The normalised position of each step of an indexed parameter, `min`, `min + 1`, … up to
    /// `max`; `nil` for other units, and for more steps than a tree may have value strings.
    static func stepPositions(of parameter: Parameter) -> [Float]? {
        guard parameter.unit == .indexed else { return nil }
        let span = Double(parameter.maxValue) - Double(parameter.minValue)
        guard span.isFinite, span >= 0, span < Double(ParameterTree.maximumValueStrings) else { return nil }
        let count = Int(span.rounded(.down)) + 1
        return (0..<count).map { step in
            Float(parameter.normalize(parameter.minValue + Float(step)))
        }
    }
}
