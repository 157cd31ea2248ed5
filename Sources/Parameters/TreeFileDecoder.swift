/// Reads the tree file format (Docs/PARAMETERS.md) into node descriptions.
struct TreeFileDecoder {
    static let format = "knoblink-tree"
    static let version = 1
    static let groupFields: Set<String> = ["kind", "identifier", "displayName", "shortNames", "children"]
    static let parameterFields: Set<String> = [
        "kind", "identifier", "displayName", "shortNames", "address", "min", "max", "default", "unit", "unitName",
        "taper", "flags", "valueStrings", "dependentParameters",
    ]

    static func decode(_ bytes: [UInt8]) throws(ParameterTreeError) -> [ParameterNodeSpec] {
        guard bytes.count <= ParameterTree.maximumFileSize else {
            throw .fileTooLarge(bytes: bytes.count, limit: ParameterTree.maximumFileSize)
        }
        let root: JSONValue
        do {
            root = try JSONReader.parse(bytes, maximumDepth: 4 * ParameterTree.maximumDepth)
        } catch {
            throw .invalidJSON(offset: error.offset, reason: error.reason)
        }
        guard case .object(let members) = root else { throw .unsupportedFormat("the top level must be an object") }
        let fields = Fields(members: members, keyPath: "")
        try fields.allow(["format", "version", "children"])
        guard let format = try fields.string("format"), format == TreeFileDecoder.format else {
            throw .unsupportedFormat("'format' must be \"\(TreeFileDecoder.format)\"")
        }
        guard let versionText = try fields.number("version"), versionText == String(TreeFileDecoder.version) else {
            throw .unsupportedFormat("'version' must be \(TreeFileDecoder.version)")
        }
        var count = 0
        return try nodes(fields.required("children"), field: "children", prefix: "", depth: 0, count: &count)
    }

    private static func nodes(
        _ value: JSONValue, field: String, prefix: String, depth: Int, count: inout Int
    ) throws(ParameterTreeError) -> [ParameterNodeSpec] {
        guard case .array(let elements) = value else {
            throw .wrongType(keyPath: prefix, field: field, expected: "an array of nodes")
        }
        var result: [ParameterNodeSpec] = []
        for (position, element) in elements.enumerated() {
            count += 1
            let placeholder = (prefix.isEmpty ? "" : prefix + ".") + "[\(position)]"
            if count > ParameterTree.maximumNodeCount {
                throw .tooMany(keyPath: placeholder, field: "nodes", limit: ParameterTree.maximumNodeCount)
            }
            guard case .object(let members) = element else {
                throw .wrongType(keyPath: placeholder, field: field, expected: "an object")
            }
            let identifierFields = Fields(members: members, keyPath: placeholder)
            guard let identifier = try identifierFields.string("identifier") else {
                throw .missingField(keyPath: placeholder, field: "identifier")
            }
            let keyPath = prefix.isEmpty ? identifier : prefix + "." + identifier
            try TreeLayout.checkIdentifier(identifier, keyPath: keyPath, topLevel: prefix.isEmpty)
            let fields = Fields(members: members, keyPath: keyPath)
            switch try fields.string("kind") {
            case "group":
                if depth + 1 > ParameterTree.maximumDepth {
                    throw .tooDeep(keyPath: keyPath, limit: ParameterTree.maximumDepth)
                }
                try fields.allow(groupFields)
                let children = try nodes(
                    fields.required("children"), field: "children", prefix: keyPath, depth: depth + 1, count: &count)
                result.append(
                    .group(
                        ParameterGroupSpec(
                            identifier: identifier, displayName: try fields.string("displayName") ?? identifier,
                            children: children, shortNames: try fields.strings("shortNames") ?? [])))
            case "parameter":
                try fields.allow(parameterFields)
                result.append(.parameter(try parameter(fields, identifier: identifier)))
            case nil:
                throw .missingField(keyPath: keyPath, field: "kind")
            case let other?:
                throw .invalidValue(keyPath: keyPath, field: "kind", reason: "'\(other)' is not group or parameter")
            }
        }
        return result
    }

    private static func parameter(_ fields: Fields, identifier: String) throws(ParameterTreeError) -> ParameterSpec {
        let keyPath = fields.keyPath
        guard let address = try fields.address("address") else {
            throw .missingField(keyPath: keyPath, field: "address")
        }
        guard let minValue = try fields.float("min") else { throw .missingField(keyPath: keyPath, field: "min") }
        guard let maxValue = try fields.float("max") else { throw .missingField(keyPath: keyPath, field: "max") }
        var unit = ParameterUnit.generic
        if let name = try fields.string("unit") {
            guard let named = ParameterUnit(name: name) else {
                throw .invalidValue(keyPath: keyPath, field: "unit", reason: "unknown unit '\(name)'")
            }
            unit = named
        }
        var flags: ParameterFlags = [.readable, .writable]
        if let names = try fields.strings("flags") {
            flags = []
            for name in names {
                guard let flag = ParameterFlags.named.first(where: { $0.name == name })?.flag else {
                    throw .invalidValue(keyPath: keyPath, field: "flags", reason: "unknown flag '\(name)'")
                }
                flags.insert(flag)
            }
        }
        if let name = try fields.string("taper") {
            guard let taper = ParameterTaper(rawValue: name) else {
                throw .invalidValue(keyPath: keyPath, field: "taper", reason: "unknown taper '\(name)'")
            }
            flags.taper = taper
        }
        var dependents: [ParameterAddress] = []
        if let value = fields.optional("dependentParameters") {
            guard case .array(let elements) = value else {
                throw .wrongType(keyPath: keyPath, field: "dependentParameters", expected: "an array of addresses")
            }
            for element in elements {
                guard let address = Fields.address(element) else {
                    throw .wrongType(keyPath: keyPath, field: "dependentParameters", expected: "an array of addresses")
                }
                dependents.append(address)
            }
        }
        return ParameterSpec(
            identifier: identifier, displayName: try fields.string("displayName") ?? identifier, address: address,
            minValue: minValue, maxValue: maxValue, defaultValue: try fields.float("default") ?? minValue, unit: unit,
            unitName: try fields.string("unitName"), flags: flags,
            valueStrings: try fields.strings("valueStrings") ?? [],
            dependentParameters: dependents, shortNames: try fields.strings("shortNames") ?? [])
    }

    /// The members of one node, with typed accessors whose errors name the node and field.
    struct Fields {
        let members: [(key: String, value: JSONValue)]
        let keyPath: String

        func allow(_ names: Set<String>) throws(ParameterTreeError) {
            if let unknown = members.first(where: { !names.contains($0.key) }) {
                throw .unknownField(keyPath: keyPath, field: unknown.key)
            }
        }

        func optional(_ field: String) -> JSONValue? {
            members.first(where: { $0.key == field })?.value
        }

        func required(_ field: String) throws(ParameterTreeError) -> JSONValue {
            guard let value = optional(field) else { throw .missingField(keyPath: keyPath, field: field) }
            return value
        }

        func string(_ field: String) throws(ParameterTreeError) -> String? {
            guard let value = optional(field) else { return nil }
            guard case .string(let text) = value else {
                throw .wrongType(keyPath: keyPath, field: field, expected: "a string")
            }
            return text
        }

        func strings(_ field: String) throws(ParameterTreeError) -> [String]? {
            guard let value = optional(field) else { return nil }
            guard case .array(let elements) = value else {
                throw .wrongType(keyPath: keyPath, field: field, expected: "an array of strings")
            }
            if elements.count > ParameterTree.maximumValueStrings {
                throw .tooMany(keyPath: keyPath, field: field, limit: ParameterTree.maximumValueStrings)
            }
            var result: [String] = []
            for element in elements {
                guard case .string(let text) = element else {
                    throw .wrongType(keyPath: keyPath, field: field, expected: "an array of strings")
                }
                result.append(text)
            }
            return result
        }

        func number(_ field: String) throws(ParameterTreeError) -> String? {
            guard let value = optional(field) else { return nil }
            guard case .number(let text) = value else {
                throw .wrongType(keyPath: keyPath, field: field, expected: "a number")
            }
            return text
        }

        func float(_ field: String) throws(ParameterTreeError) -> ParameterValue? {
            guard let text = try number(field) else { return nil }
            guard let value = ParameterValue(text), value.isFinite else {
                throw .invalidValue(keyPath: keyPath, field: field, reason: "\(text) does not fit a 32-bit float")
            }
            return value
        }

        func address(_ field: String) throws(ParameterTreeError) -> ParameterAddress? {
            guard let value = optional(field) else { return nil }
            guard case .number = value else { throw .wrongType(keyPath: keyPath, field: field, expected: "a number") }
            guard let address = Fields.address(value) else {
                throw .invalidValue(keyPath: keyPath, field: field, reason: "must be an integer from 0 to 2^64-1")
            }
            return address
        }

        static func address(_ value: JSONValue) -> ParameterAddress? {
            guard case .number(let text) = value else { return nil }
            return ParameterAddress(text)
        }
    }
}
