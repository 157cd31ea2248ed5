/// Writes node descriptions in the tree file format, every field explicit but the empty ones.
enum TreeFileEncoder {
    static func encode(_ specs: [ParameterNodeSpec]) -> String {
        JSONWriter.write(
            .object([
                ("format", .string(TreeFileDecoder.format)),
                ("version", .number(String(TreeFileDecoder.version))),
                ("children", .array(specs.map(node))),
            ]))
    }

    private static func node(_ spec: ParameterNodeSpec) -> JSONValue {
        switch spec {
        case .group(let group):
            var members: [(key: String, value: JSONValue)] = [
                ("kind", .string("group")), ("identifier", .string(group.identifier)),
                ("displayName", .string(group.displayName)),
            ]
            if !group.shortNames.isEmpty {
                members.append(("shortNames", .array(group.shortNames.map(JSONValue.string))))
            }
            members.append(("children", .array(group.children.map(node))))
            return .object(members)
        case .parameter(let parameter):
            var members: [(key: String, value: JSONValue)] = [
                ("kind", .string("parameter")), ("identifier", .string(parameter.identifier)),
                ("displayName", .string(parameter.displayName)),
            ]
            if !parameter.shortNames.isEmpty {
                members.append(("shortNames", .array(parameter.shortNames.map(JSONValue.string))))
            }
            members += [
                ("address", .number(String(parameter.address))), ("min", JSONWriter.number(parameter.minValue)),
                ("max", JSONWriter.number(parameter.maxValue)), ("default", JSONWriter.number(parameter.defaultValue)),
                ("unit", .string(parameter.unit.name)),
            ]
            if let unitName = parameter.unitName { members.append(("unitName", .string(unitName))) }
            members.append(("taper", .string(parameter.flags.taper.rawValue)))
            let names = ParameterFlags.named.filter { parameter.flags.contains($0.flag) }.map {
                JSONValue.string($0.name)
            }
            members.append(("flags", .array(names)))
            if !parameter.valueStrings.isEmpty {
                members.append(("valueStrings", .array(parameter.valueStrings.map(JSONValue.string))))
            }
            if !parameter.dependentParameters.isEmpty {
                members.append(
                    ("dependentParameters", .array(parameter.dependentParameters.map { .number(String($0)) })))
            }
            return .object(members)
        }
    }
}
