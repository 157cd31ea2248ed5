/// An object held without reference counting, by code that guarantees by other means that the
/// object outlives every use of the reference.
///
/// Copying a strong reference out of an array or a stored property and calling through it costs a
/// retain and a release, two atomic operations; a loop that visits every subscriber of a change,
/// or every observer of a parameter, paid them per element, the largest cost of the loop. A
/// `weak` or `unowned` reference is no cheaper: either gives the object a side table, after which
/// every retain and release of it takes the Swift runtime's slow path. This reference is a bare
/// pointer, trivial to copy, and ``withObject(_:)`` borrows the object for the length of the call
/// (through the standard library's `Unmanaged._withUnsafeGuaranteedRef`), retaining nothing.
///
/// ```swift
/// struct Entry {
///     let peer: UncheckedReference<Peer>  // `peers` holds every peer strongly
/// }
/// for entry in entries {
///     entry.peer.withObject { peer in peer.mark(index) }
/// }
/// ```
///
/// Whoever makes the reference owns the guarantee: something else holds the object strongly (an
/// array of owners next to the references, a parent that lives as long as its table) for as long
/// as the reference may be used. Debug builds check it: the reference also keeps a `weak`
/// reference, and a use after the object was freed traps, where a release build would read freed
/// memory. Release builds keep only the pointer.
///
/// This is for objects of the program's own. A C library's user-data pointer (a callback's
/// `void *` that stands for a Swift object, as libsndfile's virtual I/O, Avahi's callbacks or a
/// thread's start routine take) is another thing, and stays a plain `Unmanaged` where it is
/// converted: its lifetime is the C API's contract, not a table's.
public struct UncheckedReference<Object: AnyObject> {
    @usableFromInline
    let unmanaged: Unmanaged<Object>

    #if DEBUG
        /// Only for the check that the object is alive (debug builds).
        @usableFromInline
        weak var alive: Object?
    #endif

    /// A reference to `object`, which the caller keeps alive for as long as the reference is used.
    @inlinable
    public init(_ object: Object) {
        unmanaged = .passUnretained(object)
        #if DEBUG
            alive = object
        #endif
    }

    /// Calls `body` with the object, borrowed for the length of the call: no retain, no release.
    ///
    /// Debug builds trap when the object was already freed.
    @inlinable
    @inline(__always)
    public func withObject<Result, Failure: Error>(
        _ body: (Object) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        checkAlive()
        let result = unmanaged._withUnsafeGuaranteedRef { object in
            Swift.Result { () throws(Failure) -> Result in try body(object) }
        }
        return try result.get()
    }

    /// The object, as a strong reference (retained like any other): for code off the hot path that
    /// keeps or passes it on.
    ///
    /// Debug builds trap when the object was already freed.
    @inlinable
    public var object: Object {
        checkAlive()
        return unmanaged.takeUnretainedValue()
    }

    /// Whether this is a reference to `other`: an identity comparison of the pointers, which
    /// touches neither object.
    @inlinable
    @inline(__always)
    public func refers(to other: Object?) -> Bool {
        guard let other else { return false }
        return unmanaged.toOpaque() == Unmanaged.passUnretained(other).toOpaque()
    }

    @inlinable
    @inline(__always)
    func checkAlive() {
        #if DEBUG
            precondition(alive != nil, "UncheckedReference<\(Object.self)>: the object was used after it was freed")
        #endif
    }
}

/// As `Unmanaged` is: whoever shares the reference across threads shares the object, which must
/// itself be `Sendable`.
extension UncheckedReference: @unchecked Sendable where Object: Sendable {}
