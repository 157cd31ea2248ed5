/// The checked, flattened shape of a tree: pass one of building it.
struct TreeLayout {
    struct FlatParameter {
        var spec: ParameterSpec
        var keyPath: String
        var parent: Int
    }

    struct FlatGroup {
        var keyPath: String
        var parent: Int
        var range: Range<Int>
    }

    var parameters: [FlatParameter] = []
    var groups: [FlatGroup] = []
    private var keyPathByAddress: [ParameterAddress: String] = [:]
    private var nodeCount = 0

    mutating func check(_ specs: [ParameterNodeSpec]) throws(ParameterTreeError) {
        try check(specs, prefix: "", parent: -1, depth: 0)
    }

    private mutating func check(
        _ specs: [ParameterNodeSpec], prefix: String, parent: Int, depth: Int
    ) throws(ParameterTreeError) {
        var seen: Set<String> = []
        for spec in specs {
            nodeCount += 1
            let keyPath = prefix.isEmpty ? spec.identifier : prefix + "." + spec.identifier
            if nodeCount > ParameterTree.maximumNodeCount {
                throw .tooMany(keyPath: keyPath, field: "nodes", limit: ParameterTree.maximumNodeCount)
            }
            try TreeLayout.checkIdentifier(spec.identifier, keyPath: keyPath, topLevel: prefix.isEmpty)
            guard seen.insert(spec.identifier).inserted else { throw .duplicateIdentifier(keyPath: keyPath) }
            switch spec {
            case .parameter(let parameter):
                try check(parameter, keyPath: keyPath)
                parameters.append(FlatParameter(spec: parameter, keyPath: keyPath, parent: parent))
            case .group(let group):
                if depth + 1 > ParameterTree.maximumDepth {
                    throw .tooDeep(keyPath: keyPath, limit: ParameterTree.maximumDepth)
                }
                try TreeLayout.checkNames(group.displayName, group.shortNames, keyPath: keyPath)
                let index = groups.count
                let start = parameters.count
                groups.append(FlatGroup(keyPath: keyPath, parent: parent, range: start..<start))
                try check(group.children, prefix: keyPath, parent: index, depth: depth + 1)
                groups[index].range = start..<parameters.count
            }
        }
    }

    private mutating func check(_ spec: ParameterSpec, keyPath: String) throws(ParameterTreeError) {
        try TreeLayout.checkNames(spec.displayName, spec.shortNames, keyPath: keyPath)
        let low = Double(spec.minValue)
        let high = Double(spec.maxValue)
        guard low.isFinite, high.isFinite, low <= high else {
            throw .invalidRange(keyPath: keyPath, min: low, max: high)
        }
        let defaultValue = Double(spec.defaultValue)
        guard defaultValue.isFinite, defaultValue >= low, defaultValue <= high else {
            throw .defaultOutOfRange(keyPath: keyPath, defaultValue: defaultValue)
        }
        if spec.valueStrings.count > ParameterTree.maximumValueStrings {
            throw .tooMany(keyPath: keyPath, field: "valueStrings", limit: ParameterTree.maximumValueStrings)
        }
        for string in spec.valueStrings where string.count > ParameterTree.maximumNameLength {
            throw .tooMany(
                keyPath: keyPath, field: "characters in a value string", limit: ParameterTree.maximumNameLength)
        }
        if let unitName = spec.unitName, unitName.count > ParameterTree.maximumNameLength {
            throw .tooMany(keyPath: keyPath, field: "characters in unitName", limit: ParameterTree.maximumNameLength)
        }
        if let other = keyPathByAddress[spec.address] {
            throw .duplicateAddress(keyPath: keyPath, address: spec.address, otherKeyPath: other)
        }
        keyPathByAddress[spec.address] = keyPath
    }

    static func checkNames(_ displayName: String, _ shortNames: [String], keyPath: String) throws(ParameterTreeError) {
        let limit = ParameterTree.maximumNameLength
        if displayName.count > limit {
            throw .tooMany(keyPath: keyPath, field: "characters in displayName", limit: limit)
        }
        if shortNames.count > 16 { throw .tooMany(keyPath: keyPath, field: "shortNames", limit: 16) }
        for name in shortNames where name.count > limit {
            throw .tooMany(keyPath: keyPath, field: "characters in a short name", limit: limit)
        }
    }

    static func checkIdentifier(_ identifier: String, keyPath: String, topLevel: Bool) throws(ParameterTreeError) {
        let valid =
            !identifier.isEmpty && identifier.utf8.count <= 64
            && identifier.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x5F || byte == 0x2D
            }
        guard valid else { throw .invalidIdentifier(keyPath: keyPath, identifier: identifier) }
        if ParameterTree.reservedIdentifiers.contains(identifier)
            || (topLevel && ParameterTree.reservedTopLevelIdentifiers.contains(identifier))
        {
            throw .reservedIdentifier(keyPath: keyPath, identifier: identifier)
        }
    }
}
