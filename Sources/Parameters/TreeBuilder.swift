/// Pass two of building a tree: the node objects, in the order ``TreeLayout`` numbered them.
struct TreeBuilder {
    let layout: TreeLayout
    let storage: ParameterStorage
    var parameters: [Parameter] = []
    var groups: [ParameterGroup?]

    init(layout: TreeLayout, storage: ParameterStorage) {
        self.layout = layout
        self.storage = storage
        groups = Array(repeating: nil, count: layout.groups.count)
    }

    private var nextGroup = 0

    mutating func build(_ specs: [ParameterNodeSpec], prefix: String) -> [ParameterNode] {
        specs.map { spec in
            let keyPath = prefix.isEmpty ? spec.identifier : prefix + "." + spec.identifier
            switch spec {
            case .parameter(let parameterSpec):
                let parameter = Parameter(
                    spec: parameterSpec, keyPath: keyPath, index: parameters.count, storage: storage)
                parameters.append(parameter)
                return .parameter(parameter)
            case .group(let groupSpec):
                let index = nextGroup
                nextGroup += 1
                let children = build(groupSpec.children, prefix: keyPath)
                let group = ParameterGroup(
                    spec: groupSpec, keyPath: keyPath, children: children, parameterRange: layout.groups[index].range,
                    index: index, storage: storage)
                groups[index] = group
                return .group(group)
            }
        }
    }
}
