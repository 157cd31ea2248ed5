extension ParameterTree {
    /// Describes a parameter, with AUParameterTree's factory names (the value starts at `min`
    /// unless `defaultValue` is given).
    public static func createParameter(
        withIdentifier identifier: String, name: String, address: ParameterAddress, min: ParameterValue,
        max: ParameterValue, unit: ParameterUnit, unitName: String? = nil, flags: ParameterFlags = [],
        valueStrings: [String]? = nil, dependentParameters: [ParameterAddress]? = nil,
        defaultValue: ParameterValue? = nil
    ) -> ParameterNodeSpec {
        .parameter(
            ParameterSpec(
                identifier: identifier, displayName: name, address: address, minValue: min, maxValue: max,
                defaultValue: defaultValue, unit: unit, unitName: unitName, flags: flags,
                valueStrings: valueStrings ?? [], dependentParameters: dependentParameters ?? []))
    }

    /// Describes a group.
    public static func createGroup(
        withIdentifier identifier: String, name: String, children: [ParameterNodeSpec]
    ) -> ParameterNodeSpec {
        .group(ParameterGroupSpec(identifier: identifier, displayName: name, children: children))
    }

    /// Describes a group from a template: the template's children with every address (and
    /// dependent address) moved by `addressOffset`, under a new identifier and name.
    ///
    /// - Returns: the group, or `nil` if an address would overflow 64 bits.
    public static func createGroup(
        fromTemplate template: [ParameterNodeSpec], identifier: String, name: String, addressOffset: ParameterAddress
    ) -> ParameterNodeSpec? {
        guard let children = offset(template, by: addressOffset) else { return nil }
        return createGroup(withIdentifier: identifier, name: name, children: children)
    }

    /// Builds a tree (AUParameterTree's `createTree(withChildren:)`).
    /// - Throws: ``ParameterTreeError`` naming the first offending node.
    public static func createTree(withChildren children: [ParameterNodeSpec]) throws(ParameterTreeError)
        -> ParameterTree
    {
        try ParameterTree(children: children)
    }

    private static func offset(_ nodes: [ParameterNodeSpec], by amount: ParameterAddress) -> [ParameterNodeSpec]? {
        var result: [ParameterNodeSpec] = []
        for node in nodes {
            switch node {
            case .parameter(var spec):
                let (address, overflow) = spec.address.addingReportingOverflow(amount)
                guard !overflow else { return nil }
                spec.address = address
                var dependents: [ParameterAddress] = []
                for dependent in spec.dependentParameters {
                    let (moved, overflow) = dependent.addingReportingOverflow(amount)
                    guard !overflow else { return nil }
                    dependents.append(moved)
                }
                spec.dependentParameters = dependents
                result.append(.parameter(spec))
            case .group(var spec):
                guard let children = offset(spec.children, by: amount) else { return nil }
                spec.children = children
                result.append(.group(spec))
            }
        }
        return result
    }
}
