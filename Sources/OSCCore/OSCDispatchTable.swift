import UncheckedState

/// The compiled form of an ``OSCDispatcher``'s registrations: an immutable snapshot, rebuilt
/// after any change, plus the pattern cache that belongs to that snapshot.
///
/// Exact addresses are found in an open-addressing hash table keyed by the address bytes.
/// Patterns walk a tree of address parts whose children are sorted by their bytes, so that a
/// part such as `p1*` visits only the children that start with `p1`; a pattern with `//` walks
/// the levels before its first `//` the same way and then tests every address below.
///
/// The arrays are `let` and the table is never mutated while a handler runs, so a handler may
/// register, unregister or dispatch again: the dispatcher then builds a new table, and this one
/// lives until the dispatch that uses it returns.
@usableFromInline
final class OSCDispatchTable {
    struct Node {
        /// The node's full address in `arena` (empty for the root).
        var pathStart: Int32
        var pathLength: Int32
        /// The node's own part: the last `segmentLength` bytes of its path.
        var segmentLength: Int32
        /// The node's children in `children`, sorted by their part's bytes.
        var childrenStart: Int32
        var childrenCount: Int32
        /// Nodes are laid out in depth-first order: this node's subtree is `index..<subtreeEnd`.
        var subtreeEnd: Int32
        /// The methods registered on this address, in `methodList`; none if the count is 0.
        var methodsStart: Int32
        var methodsCount: Int32
        var hash: UInt64

        /// Where the node's own part starts in `arena`. Computed: a stored one made each of a
        /// large tree's nodes 8 bytes larger (40, not 48).
        var segmentStart: Int32 { pathStart + pathLength - segmentLength }
    }

    /// A handler in an object of its own: calling it through a `let` of a guaranteed reference
    /// borrows the closure, where a closure copied out of an array element was retained and
    /// released around every call.
    ///
    /// A box holds a plain handler, or (as a ``ContextHandlerBox``) one that takes the dispatch's
    /// context, with the context's type so that a dispatch with another type (or none) traps
    /// instead of reading the context as something it is not. The plain closure is a
    /// non-optional `let`: binding an optional closure copies it, with a retain and a release
    /// around every call, where calling a `let` through the guaranteed reference borrows it. A
    /// context handler's `handler` traps: a dispatch without its context falls through to it.
    @usableFromInline
    class HandlerBox {
        final let handler: OSCDispatcher.Handler
        /// `nil` for a plain handler.
        final let contextType: ObjectIdentifier?

        init(_ handler: @escaping OSCDispatcher.Handler) {
            self.handler = handler
            contextType = nil
        }

        /// A box for a handler that takes a context of the type `contextType` names.
        @usableFromInline
        init(contextType: ObjectIdentifier) {
            handler = { message in
                preconditionFailure(
                    "OSCDispatcher: the handler on \(message.address) takes a context that this dispatch did not pass")
            }
            self.contextType = contextType
        }

        /// Calls the handler; `tag` is the registration's, which only a shared handler reads.
        @inline(__always)
        final func call(_ message: OSCMessageView, _ context: OSCDispatcher.ErasedContext, tag: Int32 = 0) {
            if contextType == nil {
                handler(message)
            } else {
                callWithContext(message, context, tag: tag)
            }
        }

        private final func callWithContext(
            _ message: OSCMessageView, _ context: OSCDispatcher.ErasedContext, tag: Int32
        ) {
            guard let pointer = context.pointer, context.type == contextType else {
                return handler(message)
            }
            call(message, contextAt: pointer, tag: tag)
        }

        /// Calls the handler with the context at `pointer`, of the box's context type.
        @usableFromInline
        func call(_ message: OSCMessageView, contextAt pointer: UnsafeRawPointer, tag: Int32) {
            handler(message)
        }
    }

    /// A handler that takes a `Context`, held as the caller made it: a closure that captures a
    /// single class reference needs no context object of its own, and wrapping it in a closure
    /// that converts the pointer would add one per registration (32 bytes each; a server
    /// registers thousands).
    @usableFromInline
    final class ContextHandlerBox<Context>: HandlerBox {
        @usableFromInline
        let typedHandler: (OSCMessageView, Context) -> Void

        @inlinable
        init(_ handler: @escaping (OSCMessageView, Context) -> Void) {
            typedHandler = handler
            super.init(contextType: ObjectIdentifier(Context.self))
        }

        @inlinable
        override func call(_ message: OSCMessageView, contextAt pointer: UnsafeRawPointer, tag: Int32) {
            typedHandler(message, pointer.assumingMemoryBound(to: Context.self).pointee)
        }
    }

    /// A handler that takes a `Context` and the tag of the registration that reached it: one box
    /// for many addresses (an ``OSCDispatcher/SharedHandler``), where a box per address would
    /// cost an object per registration.
    @usableFromInline
    final class TaggedContextHandlerBox<Context>: HandlerBox {
        @usableFromInline
        let typedHandler: (OSCMessageView, Context, Int) -> Void

        @inlinable
        init(_ handler: @escaping (OSCMessageView, Context, Int) -> Void) {
            typedHandler = handler
            super.init(contextType: ObjectIdentifier(Context.self))
        }

        @inlinable
        override func call(_ message: OSCMessageView, contextAt pointer: UnsafeRawPointer, tag: Int32) {
            typedHandler(message, pointer.assumingMemoryBound(to: Context.self).pointee, Int(tag))
        }
    }

    struct Method {
        /// Kept alive by `handlerBoxes`.
        let handler: UncheckedReference<HandlerBox>
        /// The type spec in `typeSpecs`; a negative length accepts any arguments.
        let typeSpecStart: Int32
        let typeSpecLength: Int32
        /// The registration's tag, for a shared handler.
        let tag: Int32
    }

    struct CacheEntry {
        var hash: UInt64 = 0
        var pattern: [UInt8] = []
        var nodes: [Int32] = []
        var isUsed = false
    }

    static let cacheSize = 64
    static let longestCachedPattern = 256

    let arena: [UInt8]
    let nodes: [Node]
    let children: [Int32]
    let slots: [Int32]
    let slotMask: Int
    let methodList: [Int32]
    let methods: [Method]
    let typeSpecs: [UInt8]
    /// Owns the handlers that `methods` reach without reference counting, each once: a shared
    /// handler serves thousands of methods.
    private let handlerBoxes: [HandlerBox]

    /// Recent patterns and the nodes they reached; direct-mapped on the pattern's hash.
    private var cache: [CacheEntry]
    /// Where a tree walk collects nodes (kept to reuse its capacity).
    private var scratch: [Int32] = []
    /// Children whose part a pattern was tested against, over the table's life (for tests).
    var visits: Int { counters.value.visits }
    /// Matcher steps over the table's life (for tests).
    var steps: Int { counters.value.steps }
    /// In a box: a class's stored `var` costs a dynamic exclusivity check per access, which the
    /// walk would pay once per child.
    private let counters = UncheckedBox((visits: 0, steps: 0))

    /// Compiles `registrations`, whose addresses (already validated) and type specs are spans of
    /// `store`, keeping their order per address.
    ///
    /// The registrations are sorted by address in the tree's order (``treeOrder(_:_:)``), which
    /// groups each address's methods in registration order and lets one pass lay out the tree:
    /// no table of addresses or of parts is built on the way. Every array is reserved at its
    /// final size: a table of thousands of addresses is built once, and growth by doubling would
    /// leave up to half of each unused.
    init(store: [UInt8], registrations: [Registration]) {
        var methods: [Method] = []
        var typeSpecs: [UInt8] = []
        var handlerBoxes: [HandlerBox] = []
        methods.reserveCapacity(registrations.count)
        var kept = Set<ObjectIdentifier>()
        var specBytes = 0
        for registration in registrations {
            specBytes += max(Int(registration.typeSpec.count), 0)
        }
        typeSpecs.reserveCapacity(specBytes)
        // The methods of each address, in registration order within it: `methodList`.
        var order = [Int32](unsafeUninitializedCapacity: registrations.count) { buffer, count in
            for index in 0..<registrations.count {
                buffer[index] = Int32(index)
            }
            count = registrations.count
        }
        var addressCount = 0
        var slotCapacity = 8
        let tree = store.withUnsafeBytes { store in
            for registration in registrations {
                var specStart: Int32 = 0
                if registration.typeSpec.count >= 0 {
                    specStart = Int32(typeSpecs.count)
                    typeSpecs.append(contentsOf: registration.typeSpec.bytes(in: store))
                }
                if kept.insert(ObjectIdentifier(registration.handler)).inserted {
                    handlerBoxes.append(registration.handler)
                }
                methods.append(
                    Method(
                        handler: UncheckedReference(registration.handler), typeSpecStart: specStart,
                        typeSpecLength: registration.typeSpec.count, tag: registration.tag))
            }
            order.sort { left, right in
                let compared = Self.treeOrder(
                    registrations[Int(left)].address.bytes(in: store),
                    registrations[Int(right)].address.bytes(in: store))
                return compared < 0 || (compared == 0 && left < right)
            }
            let size = Self.treeSize(store, registrations, order)
            var layout = Layout(nodes: size.nodes, pathBytes: size.pathBytes)
            var start = 0
            var previous = UnsafeRawBufferPointer(start: nil, count: 0)
            while start < order.count {
                let address = registrations[Int(order[start])].address.bytes(in: store)
                var end = start + 1
                while end < order.count
                    && Self.treeOrder(registrations[Int(order[end])].address.bytes(in: store), address) == 0
                {
                    end += 1
                }
                let shared = previous.isEmpty ? 0 : Self.sharedPathEnd(previous, address)
                layout.add(address, sharedPathEnd: shared, methods: start..<end)
                addressCount += 1
                previous = address
                start = end
            }
            layout.finish()
            return layout
        }

        while slotCapacity < 2 * addressCount {
            slotCapacity <<= 1
        }
        let nodes = tree.nodes
        var slots = [Int32](repeating: -1, count: slotCapacity)
        for index in nodes.indices where nodes[index].methodsCount > 0 {
            var slot = Int(truncatingIfNeeded: nodes[index].hash) & (slotCapacity - 1)
            while slots[slot] >= 0 {
                slot = (slot + 1) & (slotCapacity - 1)
            }
            slots[slot] = Int32(index)
        }

        self.arena = tree.arena
        self.nodes = nodes
        self.children = tree.children
        self.slots = slots
        self.slotMask = slotCapacity - 1
        self.methodList = order
        self.methods = methods
        self.typeSpecs = typeSpecs
        self.handlerBoxes = handlerBoxes
        self.cache = Array(repeating: CacheEntry(), count: Self.cacheSize)
    }

    // MARK: Dispatch

    /// Calls every handler that `message` reaches and returns how many were called.
    ///
    /// - Throws: ``OSCAddressError`` if the address is neither registered nor a valid pattern.
    func dispatch(_ message: OSCMessageView, context: OSCDispatcher.ErasedContext) throws(OSCAddressError) -> Int {
        let address = message.addressBytes
        let hash = Self.hash(address)
        let node = find(address, hash: hash)
        if node >= 0 {
            return invoke(node: Int(node), message, context)
        }
        // Not a registered address: a pattern, an address nobody registered, or garbage.
        let reached = try self.reached(byPattern: address, hash: hash)
        var count = 0
        for node in reached {
            count += invoke(node: Int(node), message, context)
        }
        return count
    }

    /// The node registered under exactly `address`, or -1.
    @inline(__always)
    func find(_ address: UnsafeRawBufferPointer, hash: UInt64) -> Int32 {
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let node = slots[slot]
            if node < 0 {
                return -1
            }
            let candidate = nodes[Int(node)]
            if candidate.hash == hash && Int(candidate.pathLength) == address.count {
                let equal = arena.withUnsafeBytes { arena in
                    address.isEmpty || memoryEqual(arena.baseAddress! + Int(candidate.pathStart), address)
                }
                if equal {
                    return node
                }
            }
            slot = (slot + 1) & slotMask
        }
    }

    @inline(__always)
    private func invoke(node: Int, _ message: OSCMessageView, _ context: OSCDispatcher.ErasedContext) -> Int {
        let entry = nodes[node]
        var reached = 0
        var index = Int(entry.methodsStart)
        let end = index + Int(entry.methodsCount)
        let typeTags = message.typeTags
        // The compiled arrays are `let` and were checked against each other when built.
        methodList.withUnsafeBufferPointer { methodList in
            methods.withUnsafeBufferPointer { methods in
                while index < end {
                    let method = methods[Int(methodList[index])]
                    if method.typeSpecLength < 0 || accepts(method, typeTags: typeTags) {
                        method.handler.withObject { $0.call(message, context, tag: method.tag) }
                        reached &+= 1
                    }
                    index &+= 1
                }
            }
        }
        return reached
    }

    /// Whether tags fit the method's type spec, coercing within {i h f d} and within {s S}.
    @inline(__always)
    private func accepts(_ method: Method, typeTags: UnsafeRawBufferPointer) -> Bool {
        let length = Int(method.typeSpecLength)
        guard length == typeTags.count else {
            return false
        }
        return typeSpecs.withUnsafeBufferPointer { specs in
            var index = 0
            let start = Int(method.typeSpecStart)
            while index < length {
                if !Self.coercible(typeTags[index], to: specs[start + index]) {
                    return false
                }
                index += 1
            }
            return true
        }
    }

    @inline(__always)
    static func coercible(_ tag: UInt8, to wanted: UInt8) -> Bool {
        if tag == wanted {
            return true
        }
        return (isNumber(tag) && isNumber(wanted)) || (isText(tag) && isText(wanted))
    }

    @inline(__always)
    private static func isNumber(_ tag: UInt8) -> Bool {
        tag == UInt8(ascii: "i") || tag == UInt8(ascii: "h") || tag == UInt8(ascii: "f") || tag == UInt8(ascii: "d")
    }

    @inline(__always)
    private static func isText(_ tag: UInt8) -> Bool {
        tag == UInt8(ascii: "s") || tag == UInt8(ascii: "S")
    }

    // MARK: Patterns

    /// The nodes with methods that `pattern` reaches, from the cache or from a walk of the tree.
    ///
    /// - Throws: ``OSCAddressError`` if `pattern` is not a valid pattern.
    func reached(byPattern pattern: UnsafeRawBufferPointer, hash: UInt64) throws(OSCAddressError) -> [Int32] {
        let slot = Int(truncatingIfNeeded: hash >> 58)
        if cache[slot].isUsed && cache[slot].hash == hash && cache[slot].pattern.count == pattern.count {
            let equal = cache[slot].pattern.withUnsafeBytes { cached in
                pattern.isEmpty || memoryEqual(cached.baseAddress!, pattern)
            }
            if equal {
                return cache[slot].nodes
            }
        }
        guard try OSCAddressPattern.validate(pattern: pattern) else {
            // A valid address that nobody registered.
            return []
        }
        // The walk appends to a local array (no exclusivity checks) that reuses `scratch`'s storage.
        var found: [Int32] = []
        swap(&found, &scratch)
        defer { swap(&found, &scratch) }
        found.removeAll(keepingCapacity: true)
        arena.withUnsafeBytes { arena in
            walk(node: 0, at: 0, pattern: pattern, arena: arena, into: &found)
        }
        if pattern.count > Self.longestCachedPattern {
            return found
        }
        cache[slot].isUsed = true
        cache[slot].hash = hash
        cache[slot].pattern.removeAll(keepingCapacity: true)
        cache[slot].pattern.append(contentsOf: pattern)
        cache[slot].nodes.removeAll(keepingCapacity: true)
        cache[slot].nodes.append(contentsOf: found)
        return cache[slot].nodes
    }

    /// Collects into `found` the nodes with methods below `node` that match `pattern[position...]`.
    ///
    /// `position` is at the `/` that starts the next pattern part, or at the end.
    private func walk(
        node: Int, at position: Int, pattern: UnsafeRawBufferPointer, arena: UnsafeRawBufferPointer,
        into found: inout [Int32]
    ) {
        let current = nodes[node]
        let end = pattern.count
        if position == end {
            if current.methodsCount > 0 {
                found.append(Int32(node))
            }
            return
        }
        if position + 1 < end && pattern[position + 1] == OSCAddressPatternMatcher.slash {
            // `//` can reach any level below: test the rest of the pattern against every address
            // in this subtree, each once.
            let prefix = Int(current.pathLength)
            for candidate in node..<Int(current.subtreeEnd) where nodes[candidate].methodsCount > 0 {
                counters.value.visits &+= 1
                let path = Self.slice(arena, nodes[candidate].pathStart, nodes[candidate].pathLength)
                if OSCAddressPatternMatcher.matches(
                    pattern: pattern, from: position, address: path, from: prefix, steps: &counters.value.steps)
                {
                    found.append(Int32(candidate))
                }
            }
            return
        }
        let partStart = position + 1
        let partEnd = OSCAddressPatternMatcher.nextSlash(pattern, from: partStart)
        var literalEnd = partStart
        var hasBraces = false
        while literalEnd < partEnd {
            let byte = pattern[literalEnd]
            if byte == OSCAddressPatternMatcher.star || byte == OSCAddressPatternMatcher.question
                || byte == OSCAddressPatternMatcher.openBracket || byte == OSCAddressPatternMatcher.openBrace
            {
                hasBraces = OSCAddressPatternMatcher.containsBrace(pattern, literalEnd, partEnd)
                break
            }
            literalEnd += 1
        }
        let prefix = UnsafeRawBufferPointer(rebasing: pattern[partStart..<literalEnd])
        // `prefix*`, the most common pattern part, matches every child that has the prefix.
        let prefixThenStar = literalEnd + 1 == partEnd && pattern[literalEnd] == OSCAddressPatternMatcher.star
        var index = lowerBound(of: prefix, among: current, arena: arena)
        let childrenEnd = Int(current.childrenStart + current.childrenCount)
        while index < childrenEnd {
            let child = Int(children[index])
            let segment = Self.slice(arena, nodes[child].segmentStart, nodes[child].segmentLength)
            guard segment.count >= prefix.count && (prefix.isEmpty || memoryEqual(segment.baseAddress!, prefix)) else {
                // Sorted children: past the ones that start with the prefix.
                break
            }
            counters.value.visits &+= 1
            if literalEnd == partEnd {
                // A literal part: only the child equal to it can match, and it is this one or none.
                if segment.count == prefix.count {
                    walk(node: child, at: partEnd, pattern: pattern, arena: arena, into: &found)
                }
                break
            }
            // The prefix is matched already: the rest of the part goes on after it.
            let matched =
                prefixThenStar
                || OSCAddressPatternMatcher.matchesPart(
                    pattern: pattern, literalEnd, partEnd, text: segment, prefix.count, segment.count,
                    hasBraces: hasBraces, steps: &counters.value.steps)
            if matched {
                walk(node: child, at: partEnd, pattern: pattern, arena: arena, into: &found)
            }
            index += 1
        }
    }

    /// The index in `children` of the first child of `node` whose part is not below `prefix`.
    private func lowerBound(of prefix: UnsafeRawBufferPointer, among node: Node, arena: UnsafeRawBufferPointer) -> Int {
        var low = Int(node.childrenStart)
        var high = low + Int(node.childrenCount)
        if prefix.isEmpty {
            return low
        }
        while low < high {
            let middle = (low + high) >> 1
            let child = nodes[Int(children[middle])]
            let segment = Self.slice(arena, child.segmentStart, child.segmentLength)
            if Self.precedes(segment, prefix) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    @inline(__always)
    static func slice(_ arena: UnsafeRawBufferPointer, _ start: Int32, _ length: Int32) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: arena[Int(start)..<Int(start + length)])
    }

    /// Byte-wise lexicographic order, a proper prefix first.
    static func precedes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            if left[index] != right[index] {
                return left[index] < right[index]
            }
            index += 1
        }
        return left.count < right.count
    }

    // MARK: Hashing

    /// A 64-bit hash of `bytes`: a multiply–xorshift over 8-byte words, finished with
    /// MurmurHash3's `fmix64` so that the low bits (the slot) depend on every byte.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
        var index = 0
        while index + 8 <= count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            index += 8
        }
        if index < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                tail |= UInt64(bytes[index]) << shift
                shift += 8
                index += 1
            }
            hash = (hash ^ tail) &* 0xFF51_AFD7_ED55_8CCD
        }
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash
    }
}

/// Whether the bytes at `left` equal all of `right` (which is not empty).
@inline(__always)
private func memoryEqual(_ left: UnsafeRawPointer, _ right: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    let count = right.count
    let rightBase = right.baseAddress.unsafelyUnwrapped
    while index + 8 <= count {
        if left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            != rightBase.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        {
            return false
        }
        index += 8
    }
    while index < count {
        if left.load(fromByteOffset: index, as: UInt8.self) != rightBase.load(fromByteOffset: index, as: UInt8.self) {
            return false
        }
        index += 1
    }
    return true
}
