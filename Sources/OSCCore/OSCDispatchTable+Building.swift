extension OSCDispatchTable {
    /// A mutable tree of address parts, laid out into the table's flat arrays once complete.
    struct Builder {
        private var segments: [[UInt8]] = [[]]
        private var childIndex: [[[UInt8]: Int]] = [[:]]
        private var addressIndex: [Int] = [-1]
        /// The bytes of every node's path together: the size of the table's arena.
        private(set) var pathBytes = 0

        var nodeCount: Int { segments.count }

        /// Adds the validated `address` (which starts with `/`) as the path to a new or existing node.
        mutating func insert(_ address: [UInt8], addressIndex index: Int) {
            var node = 0
            var pathLength = 0
            for part in address.split(separator: OSCAddressPatternMatcher.slash, omittingEmptySubsequences: true) {
                let segment = Array(part)
                pathLength += 1 + segment.count
                if let child = childIndex[node][segment] {
                    node = child
                } else {
                    let child = segments.count
                    segments.append(segment)
                    childIndex.append([:])
                    addressIndex.append(-1)
                    childIndex[node][segment] = child
                    pathBytes += pathLength
                    node = child
                }
            }
            addressIndex[node] = index
        }

        /// Appends `node` and its subtree in depth-first order, each node's children sorted by
        /// their bytes and contiguous in `children`; returns the node's index in `nodes`.
        @discardableResult
        func layout(
            _ node: Int, path: [UInt8], segmentLength: Int, methodStarts: [Int32],
            arena: inout [UInt8], nodes: inout [Node], children: inout [Int32]
        ) -> Int {
            let index = nodes.count
            let pathStart = arena.count
            arena.append(contentsOf: path)
            var methodsStart: Int32 = 0
            var methodsCount: Int32 = 0
            if addressIndex[node] >= 0 {
                methodsStart = methodStarts[addressIndex[node]]
                methodsCount = methodStarts[addressIndex[node] + 1] - methodsStart
            }
            let hash = path.withUnsafeBytes { OSCDispatchTable.hash($0) }
            nodes.append(
                Node(
                    pathStart: Int32(pathStart), pathLength: Int32(path.count),
                    segmentStart: Int32(pathStart + path.count - segmentLength), segmentLength: Int32(segmentLength),
                    childrenStart: 0, childrenCount: 0, subtreeEnd: 0,
                    methodsStart: methodsStart, methodsCount: methodsCount, hash: hash))
            let sorted = childIndex[node].sorted { $0.key.lexicographicallyPrecedes($1.key) }
            var laidOut: [Int32] = []
            laidOut.reserveCapacity(sorted.count)
            for (segment, child) in sorted {
                let childIndex = layout(
                    child, path: path + [OSCAddressPatternMatcher.slash] + segment, segmentLength: segment.count,
                    methodStarts: methodStarts, arena: &arena, nodes: &nodes, children: &children)
                laidOut.append(Int32(childIndex))
            }
            nodes[index].childrenStart = Int32(children.count)
            nodes[index].childrenCount = Int32(laidOut.count)
            nodes[index].subtreeEnd = Int32(nodes.count)
            children.append(contentsOf: laidOut)
            return index
        }
    }
}
