/// One value behind a pointer, owned by the box: read and changed through a `let` without the
/// dynamic exclusivity check that a class's stored `var` pays on every access.
///
/// A class's stored `var` is checked at run time on every access (the compiler cannot prove that
/// no other access overlaps it), which is a measurable share of a hot path that touches a counter
/// or a small state a few times per message. A box held by a `let` of the class is immutable as
/// far as the compiler is concerned, and its ``value`` is changed in place through the pointer:
///
/// ```swift
/// final class Dispatcher {
///     private let nesting = UncheckedBox((depth: 0, hasRetired: false))
///     func dispatch() {
///         nesting.value.depth += 1
///         defer { nesting.value.depth -= 1 }
///     }
/// }
/// ```
///
/// The box allocates its value once, in ``init(_:)``, and frees it in its `deinit`, so it is not
/// copyable: exactly one owner frees the memory.
///
/// What the skipped check would have caught is the caller's to rule out: an access that overlaps a
/// change of the same value, such as a closure that changes the value while the caller reads it.
/// Debug builds check it (each access counts itself in and out, and one that overlaps a change
/// traps with a message that says so); release builds do not, and there ``value`` is a plain
/// address. The box is not `Sendable`: like the state it replaces, it belongs to one thread or
/// one event loop.
public struct UncheckedBox<Value: ~Copyable>: ~Copyable {
    @usableFromInline
    let pointer: UnsafeMutablePointer<Value>

    #if DEBUG
        /// The accesses in progress: a count of reads, or -1 for a change.
        @usableFromInline
        let accesses: UnsafeMutablePointer<Int>
    #endif

    /// Allocates a box that holds `value`.
    @inlinable
    public init(_ value: consuming Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
        #if DEBUG
            accesses = .allocate(capacity: 1)
            accesses.initialize(to: 0)
        #endif
    }

    @inlinable
    deinit {
        #if DEBUG
            precondition(accesses.pointee == 0, "UncheckedBox freed during an access to its value")
            accesses.deallocate()
        #endif
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    #if DEBUG
        /// The value, read and changed in place; in debug builds an access that overlaps a change
        /// of it traps.
        @inlinable
        public var value: Value {
            _read {
                beginRead()
                defer { accesses.pointee -= 1 }
                yield pointer.pointee
            }
            nonmutating _modify {
                beginModify()
                defer { accesses.pointee = 0 }
                yield &pointer.pointee
            }
        }

        @inlinable
        func beginRead() {
            precondition(
                accesses.pointee >= 0, "UncheckedBox<\(Value.self)>: the value was read while it was being changed")
            accesses.pointee += 1
        }

        @inlinable
        func beginModify() {
            precondition(
                accesses.pointee == 0,
                accesses.pointee < 0
                    ? "UncheckedBox<\(Value.self)>: the value was changed while it was being changed"
                    : "UncheckedBox<\(Value.self)>: the value was changed while it was being read")
            accesses.pointee = -1
        }
    #else
        /// The value, read and changed in place; in debug builds an access that overlaps a change
        /// of it traps.
        @inlinable
        public var value: Value {
            unsafeAddress { UnsafePointer(pointer) }
            nonmutating unsafeMutableAddress { pointer }
        }
    #endif
}
