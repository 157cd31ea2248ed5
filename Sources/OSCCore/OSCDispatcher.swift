import UncheckedState

/// A table of OSC methods: handlers registered on addresses, reached by exact addresses and by
/// address patterns.
///
/// ```swift
/// let dispatcher = OSCDispatcher()
/// try dispatcher.register("/knob/gain", typeSpec: "f") { message in
///     gain = message.float(at: 0)!
/// }
/// try dispatcher.dispatch(view)  // `/knob/gain ,i 3` and `/knob/g* ,f 0.5` both reach it
/// ```
///
/// An exact address is found by hashing its bytes, whatever the number of methods; a pattern
/// walks a tree of address parts and visits only the children that can match (a part such as
/// `p1*` visits the children that start with `p1`). The nodes a pattern reaches are cached for
/// the next message with the same pattern, until the next registration change. No `String` is
/// built on the way.
///
/// Handlers run on the caller's thread, synchronously, inside ``dispatch(_:)``. The dispatcher is
/// not thread-safe: keep it on one event loop (it is deliberately not `Sendable`). A handler may
/// register, unregister or dispatch; such a change applies from the next message on, and the
/// current dispatch finishes with the methods it started with. The dispatcher keeps its handlers,
/// so a handler that uses the dispatcher should capture it `unowned` or `weak`.
///
/// ## A context per dispatch
///
/// A server's handlers need to know more than the message: who sent it, when the packet arrived.
/// Rather than keeping that in properties that the caller sets around each dispatch, pass it as
/// a value: register handlers that take a context, and hand the value to
/// ``dispatch(_:context:)``, which gives it to every handler it reaches (and to the contextual
/// fallback, ``setFallback(context:_:)``). A handler that dispatches again passes its own context
/// down, or another one.
///
/// ```swift
/// struct Request { let sender: Peer; let arrival: UInt64 }
/// try dispatcher.register("/knob/gain", typeSpec: "f", context: Request.self) { message, request in
///     apply(message.float(at: 0)!, from: request.sender)
/// }
/// try dispatcher.dispatch(view, context: Request(sender: peer, arrival: now))
/// ```
///
/// The context is passed by reference to the caller's value, without copying it into the
/// dispatcher or allocating; its type is checked once per handler call (a comparison of two
/// type identifiers). A handler that takes a context traps if a dispatch reaches it without one,
/// or with a context of another type: that is a programming error, not bad input. Plain handlers
/// ignore the context, so both kinds can share one dispatcher. The dispatcher is not generic
/// over the context so that ``init()``, ``register(_:typeSpec:handler:)`` and ``dispatch(_:)``
/// stay as they are, and so that its table (compiled in this module) runs the same code whatever
/// the context's type: a generic table called from another module would run unspecialised.
public final class OSCDispatcher {
    /// A method's handler: it reads the message in place, through the view's coercing getters.
    public typealias Handler = (OSCMessageView) -> Void

    /// A dispatch's context, type-erased: where the caller's value is, and its type.
    @usableFromInline
    struct ErasedContext {
        let pointer: UnsafeRawPointer?
        let type: ObjectIdentifier?

        @usableFromInline
        init(pointer: UnsafeRawPointer?, type: ObjectIdentifier?) {
            self.pointer = pointer
            self.type = type
        }

        static var none: ErasedContext { ErasedContext(pointer: nil, type: nil) }
    }

    /// Every registration's address and type spec, one after the other: one allocation for
    /// them all, where an array each cost two small allocations per method (a server registers
    /// thousands). Unregistering leaves a gap, closed once gaps are most of the store.
    private var store: [UInt8] = []
    private var unusedBytes = 0
    private var registrations: [OSCDispatchTable.Registration] = []
    private var lastID: UInt64 = 0
    /// The compiled table, which `compiledOwner` keeps alive, so that dispatching needs no
    /// reference counting.
    private var compiled: UncheckedReference<OSCDispatchTable>?
    /// The strong reference to the table that `compiled` names.
    private var compiledOwner: OSCDispatchTable?
    /// Tables replaced while a dispatch was running, freed when the outermost dispatch returns.
    private var retired: [OSCDispatchTable] = []
    /// How deep dispatches are nested (handlers may dispatch), and whether `retired` holds
    /// anything. In a box because a stored `var` of a class costs a dynamic exclusivity check on
    /// every access, a measurable share of an exact dispatch.
    private let nesting = UncheckedBox((depth: 0, hasRetired: false))

    /// Called with a message that reached no handler (its address matched nothing, or every
    /// matching handler's type spec refused it). Not called for an invalid address.
    /// A fallback that takes a context replaces this one for dispatches with a context of its
    /// type (see ``setFallback(context:_:)``).
    public var fallback: Handler?

    /// The fallback for dispatches that pass a context of its type.
    private var contextFallback: OSCDispatchTable.HandlerBox?

    /// Creates an empty dispatcher.
    public init() {}

    /// The number of registered handlers.
    public var count: Int { registrations.count }

    /// The bytes that the registrations' addresses and type specs take, gaps included (for tests).
    var storeSize: Int { store.count }

    /// Registers `handler` on `address`, for every message whose address or pattern reaches it.
    ///
    /// Several handlers may share an address; they run in registration order.
    ///
    /// - Parameters:
    ///   - address: a valid OSC address (no pattern characters), such as `/knob/gain`.
    ///   - typeSpec: the type tags the handler accepts, such as `"f"`, `"ff"` or `"s"`, or `nil`
    ///     for any arguments (`""` accepts only messages without arguments). As in liblo, a tag
    ///     stands for itself and for the tags it coerces from: any of `i h f d` for a number, `s`
    ///     or `S` for a string; the handler reads the value with the view's coercing getters
    ///     (`float(at:)`, `string(at:)`…). A message whose tags do not fit skips the handler.
    ///   - handler: called on the dispatching thread.
    /// - Returns: the token to pass to ``unregister(_:)``.
    /// - Throws: ``OSCAddressError`` if `address` is not a valid address.
    @discardableResult
    public func register(
        _ address: String, typeSpec: String? = nil, handler: @escaping Handler
    ) throws(OSCAddressError) -> OSCMethodID {
        try register(address, typeSpec: typeSpec, box: OSCDispatchTable.HandlerBox(handler))
    }

    /// Registers `handler` on `address`, to be called with the message and the context that
    /// ``dispatch(_:context:)`` passes.
    ///
    /// The handler runs only in dispatches that pass a `Context`; a dispatch without a context,
    /// or with a context of another type, that reaches it traps.
    ///
    /// - Parameters:
    ///   - address: a valid OSC address (no pattern characters), such as `/knob/gain`.
    ///   - typeSpec: the type tags the handler accepts, as in ``register(_:typeSpec:handler:)``.
    ///   - context: the type of the context that dispatches pass.
    ///   - handler: called on the dispatching thread with the message and the dispatch's context.
    /// - Returns: the token to pass to ``unregister(_:)``.
    /// - Throws: ``OSCAddressError`` if `address` is not a valid address.
    @inlinable
    @discardableResult
    public func register<Context>(
        _ address: String, typeSpec: String? = nil, context: Context.Type,
        handler: @escaping (OSCMessageView, Context) -> Void
    ) throws(OSCAddressError) -> OSCMethodID {
        try register(address, typeSpec: typeSpec, box: OSCDispatchTable.ContextHandlerBox(handler))
    }

    /// Sets the fallback for dispatches that pass a `Context`: it gets the message that reached no
    /// handler and the dispatch's context. Dispatches without a context, or with another type,
    /// call ``fallback`` instead.
    ///
    /// - Parameters:
    ///   - context: the type of the context that dispatches pass.
    ///   - handler: the fallback, or `nil` to remove it.
    @inlinable
    public func setFallback<Context>(context: Context.Type, _ handler: ((OSCMessageView, Context) -> Void)?) {
        setFallback(box: handler.map { OSCDispatchTable.ContextHandlerBox($0) })
    }

    @usableFromInline
    func setFallback(box: OSCDispatchTable.HandlerBox?) {
        contextFallback = box
    }

    /// A handler that many addresses share, told apart by the tag that each registration gives
    /// it: one object for all of them, where a closure per address costs an object per
    /// registration (a server with 1,000 parameters registers 11,000 methods).
    ///
    /// ```swift
    /// let set = OSCDispatcher.SharedHandler(context: Request.self) { message, request, index in
    ///     parameters[index].set(message.float(at: 0)!, from: request.sender)
    /// }
    /// for (index, parameter) in parameters.enumerated() {
    ///     try dispatcher.register(parameter.address, handler: set, tag: index)
    /// }
    /// ```
    ///
    /// Like the handlers of ``register(_:typeSpec:context:handler:)``, it runs only in dispatches
    /// that pass a `Context`.
    public final class SharedHandler<Context> {
        @usableFromInline
        let box: OSCDispatchTable.HandlerBox

        /// - Parameters:
        ///   - context: the type of the context that dispatches pass.
        ///   - handler: called with the message, the dispatch's context and the registration's tag.
        @inlinable
        public init(context: Context.Type, _ handler: @escaping (OSCMessageView, Context, Int) -> Void) {
            box = OSCDispatchTable.TaggedContextHandlerBox(handler)
        }
    }

    /// Registers a shared handler on `address`, to be called with `tag`.
    ///
    /// - Parameters:
    ///   - address: a valid OSC address (no pattern characters).
    ///   - typeSpec: the type tags the handler accepts, as in ``register(_:typeSpec:handler:)``.
    ///   - handler: the handler, shared with other registrations.
    ///   - tag: what the handler gets with each message that reaches it through this
    ///     registration; within `Int32`'s range.
    /// - Returns: the token to pass to ``unregister(_:)``.
    /// - Throws: ``OSCAddressError`` if `address` is not a valid address.
    @discardableResult
    public func register<Context>(
        _ address: String, typeSpec: String? = nil, handler: SharedHandler<Context>, tag: Int
    ) throws(OSCAddressError) -> OSCMethodID {
        precondition(Int32(exactly: tag) != nil, "OSCDispatcher: a tag must be within Int32's range, not \(tag)")
        return try register(address, typeSpec: typeSpec, box: handler.box, tag: Int32(tag))
    }

    /// Makes room for `count` more registrations whose addresses and type specs take `bytes`
    /// bytes together, so that a server that registers thousands of methods at start keeps no
    /// spare capacity (arrays grown by doubling keep up to half of theirs unused).
    public func reserveCapacity(registrations count: Int, bytes: Int) {
        registrations.reserveCapacity(registrations.count + count)
        store.reserveCapacity(store.count + bytes)
    }

    @usableFromInline
    func register(
        _ address: String, typeSpec: String?, box: OSCDispatchTable.HandlerBox, tag: Int32 = 0
    ) throws(OSCAddressError) -> OSCMethodID {
        var address = address
        let result = address.withUTF8 { utf8 in
            Result { () throws(OSCAddressError) in try OSCAddressPattern.validate(address: UnsafeRawBufferPointer(utf8))
            }
        }
        try result.get()
        invalidate()
        lastID += 1
        let id = OSCMethodID(rawValue: lastID)
        let addressSpan = append(address.utf8)
        let specSpan = typeSpec.map { append($0.utf8) } ?? .any
        registrations.append(
            OSCDispatchTable.Registration(id: id, address: addressSpan, typeSpec: specSpan, handler: box, tag: tag))
        return id
    }

    private func append(_ bytes: String.UTF8View) -> OSCDispatchTable.ByteSpan {
        let start = store.count
        store.append(contentsOf: bytes)
        return OSCDispatchTable.ByteSpan(start: Int32(start), count: Int32(store.count - start))
    }

    /// Removes the handler that `id` names.
    ///
    /// - Returns: whether it was registered.
    @discardableResult
    public func unregister(_ id: OSCMethodID) -> Bool {
        guard let index = registrations.firstIndex(where: { $0.id == id }) else {
            return false
        }
        forget(registrations.remove(at: index))
        invalidate()
        return true
    }

    /// Removes every handler registered on `address`.
    ///
    /// - Returns: how many were removed.
    @discardableResult
    public func unregisterAll(address: String) -> Int {
        let before = registrations.count
        var address = address
        address.withUTF8 { address in
            store.withUnsafeBytes { store in
                registrations.removeAll { registration in
                    let registered = registration.address.bytes(in: store)
                    guard registered.elementsEqual(UnsafeRawBufferPointer(address)) else {
                        return false
                    }
                    unusedBytes += Int(registration.address.count) + max(Int(registration.typeSpec.count), 0)
                    return true
                }
            }
        }
        if registrations.count != before {
            compactIfMostlyUnused()
            invalidate()
        }
        return before - registrations.count
    }

    /// Removes every handler (the fallback stays).
    public func removeAll() {
        registrations.removeAll()
        store.removeAll()
        unusedBytes = 0
        invalidate()
    }

    /// Counts the removed registration's bytes as unused.
    private func forget(_ registration: OSCDispatchTable.Registration) {
        unusedBytes += Int(registration.address.count) + max(Int(registration.typeSpec.count), 0)
        compactIfMostlyUnused()
    }

    /// Copies the registrations' bytes to a store without gaps once the gaps are most of it.
    private func compactIfMostlyUnused() {
        guard unusedBytes > 4096 && 2 * unusedBytes > store.count else {
            return
        }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(store.count - unusedBytes)
        store.withUnsafeBytes { store in
            for index in registrations.indices {
                let address = registrations[index].address.bytes(in: store)
                registrations[index].address.start = Int32(compacted.count)
                compacted.append(contentsOf: address)
                if registrations[index].typeSpec.count >= 0 {
                    let spec = registrations[index].typeSpec.bytes(in: store)
                    registrations[index].typeSpec.start = Int32(compacted.count)
                    compacted.append(contentsOf: spec)
                }
            }
        }
        store = compacted
        unusedBytes = 0
    }

    /// Calls every handler that `message` reaches: the handlers on its address, or on every
    /// address that its pattern matches, whose type spec accepts its arguments. If none is
    /// reached, calls ``fallback``.
    ///
    /// Handlers on one address run in registration order; for a pattern, addresses are visited in
    /// tree order (parts sorted by their bytes).
    ///
    /// - Returns: the number of handlers called (the fallback does not count).
    /// - Throws: ``OSCAddressError`` if the address is not registered and is not a valid address
    ///   or pattern; no handler runs then, not even the fallback.
    /// - Complexity: for an exact address, O(length of the address) plus the handlers; for a
    ///   pattern, the parts of the tree it can match, once per distinct pattern while cached.
    @discardableResult
    public func dispatch(_ message: OSCMessageView) throws(OSCAddressError) -> Int {
        try dispatch(message, erased: .none)
    }

    /// Calls every handler that `message` reaches, as ``dispatch(_:)`` does, and gives `context`
    /// to those that take one; if none is reached, calls the fallback for `Context` if there is
    /// one (``setFallback(context:_:)``), else ``fallback``.
    ///
    /// The handlers read `context` where the caller keeps it, for the length of this call: no copy
    /// is made, and nothing of it outlives the dispatch. A handler may dispatch again, with this
    /// context or another.
    ///
    /// - Parameters:
    ///   - message: the message to dispatch.
    ///   - context: the value that the handlers registered with a context type receive.
    /// - Returns: the number of handlers called (the fallback does not count).
    /// - Throws: ``OSCAddressError`` as ``dispatch(_:)`` does.
    /// - Complexity: as ``dispatch(_:)``.
    @inlinable
    @discardableResult
    public func dispatch<Context>(_ message: OSCMessageView, context: Context) throws(OSCAddressError) -> Int {
        try withUnsafePointer(to: context) { pointer throws(OSCAddressError) in
            try dispatch(message, erased: ErasedContext(pointer: pointer, type: ObjectIdentifier(Context.self)))
        }
    }

    @usableFromInline
    @inline(__always)
    func dispatch(_ message: OSCMessageView, erased context: ErasedContext) throws(OSCAddressError) -> Int {
        let table = compiledTable()
        nesting.value.depth += 1
        defer {
            nesting.value.depth -= 1
            if nesting.value.depth == 0 && nesting.value.hasRetired {
                retired.removeAll()
                nesting.value.hasRetired = false
            }
        }
        // The table stays alive without a retain: this dispatcher holds it, and a handler that
        // replaces it moves it to `retired` until the outermost dispatch returns.
        let reached = try table.withObject { table throws(OSCAddressError) in
            try table.dispatch(message, context: context)
        }
        if reached == 0 {
            if let contextFallback, context.pointer != nil, context.type == contextFallback.contextType {
                contextFallback.call(message, context)
            } else if let fallback {
                fallback(message)
            }
        }
        return reached
    }

    /// The compiled table, rebuilt after a change.
    var table: OSCDispatchTable {
        compiledTable().object
    }

    @inline(__always)
    private func compiledTable() -> UncheckedReference<OSCDispatchTable> {
        if let compiled {
            return compiled
        }
        return compile()
    }

    private func compile() -> UncheckedReference<OSCDispatchTable> {
        let table = OSCDispatchTable(store: store, registrations: registrations)
        let reference = UncheckedReference(table)
        compiledOwner = table
        compiled = reference
        return reference
    }

    /// Drops the compiled table; it is freed now, or after the running dispatch if there is one.
    private func invalidate() {
        guard let table = compiledOwner else {
            return
        }
        compiled = nil
        compiledOwner = nil
        if nesting.value.depth > 0 {
            retired.append(table)
            nesting.value.hasRetired = true
        }
    }
}
