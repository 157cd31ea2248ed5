extension OSCDispatchTable {
    /// A span of bytes in a byte store: an address or a type spec.
    struct ByteSpan {
        var start: Int32
        /// -1 for a type spec that accepts any arguments.
        var count: Int32

        static let any = ByteSpan(start: 0, count: -1)

        func bytes(in store: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: store[Int(start)..<Int(start + max(count, 0))])
        }
    }

    /// One registration: its address and type spec as spans of the dispatcher's byte store.
    struct Registration {
        let id: OSCMethodID
        var address: ByteSpan
        var typeSpec: ByteSpan
        let handler: HandlerBox
        /// Handed to a shared handler with each message (0 for the others).
        let tag: Int32
    }

    /// Whether `left` comes before `right` in the tree's order: part by part, each part's bytes
    /// in order and a part before the longer parts it starts. That is byte order with `/` below
    /// every other byte (an address has no empty part), so `/a/b` comes before `/a-x`.
    ///
    /// - Returns: a negative number, zero or a positive number.
    static func treeOrder(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            let leftByte = left[index]
            let rightByte = right[index]
            if leftByte != rightByte {
                if leftByte == OSCAddressPatternMatcher.slash {
                    return -1
                }
                if rightByte == OSCAddressPatternMatcher.slash {
                    return 1
                }
                return leftByte < rightByte ? -1 : 1
            }
            index += 1
        }
        return left.count - right.count
    }

    /// Where the node path that `address` shares with `previous` ends (0: the root alone).
    ///
    /// Both are distinct addresses, `previous` first in tree order.
    static func sharedPathEnd(_ previous: UnsafeRawBufferPointer, _ address: UnsafeRawBufferPointer) -> Int {
        let common = min(previous.count, address.count)
        var index = 0
        while index < common && previous[index] == address[index] {
            index += 1
        }
        let endsPrevious = index == previous.count || previous[index] == OSCAddressPatternMatcher.slash
        let endsAddress = index == address.count || address[index] == OSCAddressPatternMatcher.slash
        if endsPrevious && endsAddress {
            return index
        }
        // The last `/` before they part: it ends the last part they share.
        while index > 0 && address[index] != OSCAddressPatternMatcher.slash {
            index -= 1
        }
        return index
    }

    /// The nodes and path bytes that the addresses in `order` make: a first pass over them, so
    /// that the table's arrays are reserved at their final size.
    static func treeSize(
        _ store: UnsafeRawBufferPointer, _ registrations: [Registration], _ order: [Int32]
    ) -> (nodes: Int, pathBytes: Int) {
        var nodes = 1
        var pathBytes = 0
        var previous = UnsafeRawBufferPointer(start: nil, count: 0)
        for registration in order {
            let address = registrations[Int(registration)].address.bytes(in: store)
            if !previous.isEmpty && treeOrder(previous, address) == 0 {
                continue
            }
            var index = previous.isEmpty ? 0 : sharedPathEnd(previous, address)
            while index < address.count {
                index += 1
                while index < address.count && address[index] != OSCAddressPatternMatcher.slash {
                    index += 1
                }
                nodes += 1
                pathBytes += index
            }
            previous = address
        }
        return (nodes, pathBytes)
    }

    /// The tree's flat arrays, laid out in one pass over the addresses in tree order.
    ///
    /// Nodes come in depth-first order, so a node's subtree is contiguous; each node's children
    /// are contiguous in `children`, in the order of their parts, since the addresses come in
    /// that order. A node's children are collected on `pending` while it is open (its address is
    /// a prefix of the current one) and copied to `children` when it closes.
    struct Layout {
        var arena: [UInt8] = []
        var nodes: [Node] = []
        var children: [Int32] = []
        /// The open nodes, root first, with where their path ends and where their children
        /// start in `pending`.
        private var open: [(node: Int32, pathEnd: Int, pendingStart: Int)] = []
        private var pending: [Int32] = []

        init(nodes count: Int, pathBytes: Int) {
            arena.reserveCapacity(pathBytes)
            nodes.reserveCapacity(count)
            children.reserveCapacity(count)
            openNode(path: UnsafeRawBufferPointer(start: nil, count: 0), segmentLength: 0)
        }

        /// Adds the nodes of `address` below the part it shares with the previous address, and
        /// gives the last one the methods `methodList[methods]`.
        mutating func add(_ address: UnsafeRawBufferPointer, sharedPathEnd: Int, methods: Range<Int>) {
            while open.count > 1 && open[open.count - 1].pathEnd > sharedPathEnd {
                closeNode()
            }
            var index = sharedPathEnd
            while index < address.count {
                let segmentStart = index + 1
                index = segmentStart
                while index < address.count && address[index] != OSCAddressPatternMatcher.slash {
                    index += 1
                }
                openNode(path: UnsafeRawBufferPointer(rebasing: address[..<index]), segmentLength: index - segmentStart)
            }
            let last = Int(open[open.count - 1].node)
            nodes[last].methodsStart = Int32(methods.lowerBound)
            nodes[last].methodsCount = Int32(methods.count)
        }

        /// Closes every node that is still open; the layout is complete.
        mutating func finish() {
            while !open.isEmpty {
                closeNode()
            }
        }

        private mutating func openNode(path: UnsafeRawBufferPointer, segmentLength: Int) {
            let index = Int32(nodes.count)
            let pathStart = arena.count
            arena.append(contentsOf: path)
            nodes.append(
                Node(
                    pathStart: Int32(pathStart), pathLength: Int32(path.count),
                    segmentLength: Int32(segmentLength),
                    childrenStart: 0, childrenCount: 0, subtreeEnd: 0,
                    methodsStart: 0, methodsCount: 0, hash: OSCDispatchTable.hash(path)))
            if !open.isEmpty {
                pending.append(index)
            }
            open.append((node: index, pathEnd: path.count, pendingStart: pending.count))
        }

        private mutating func closeNode() {
            let closing = open.removeLast()
            let node = Int(closing.node)
            nodes[node].childrenStart = Int32(children.count)
            nodes[node].childrenCount = Int32(pending.count - closing.pendingStart)
            nodes[node].subtreeEnd = Int32(nodes.count)
            children.append(contentsOf: pending[closing.pendingStart...])
            pending.removeSubrange(closing.pendingStart...)
        }
    }
}
