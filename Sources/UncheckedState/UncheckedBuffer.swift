/// A fixed number of elements behind one pointer, allocated and initialised once and freed with
/// the buffer: a dense table that a class changes through a `let`, without the exclusivity check
/// and the uniqueness check that a stored `Array` pays on every write.
///
/// A class that keeps an `Array` in a stored `var` pays, on each write of an element, a dynamic
/// exclusivity check of the property and a check that the array's storage is not shared (copy on
/// write). A table indexed by a dense index (a parameter's, a subscriber's), written for every
/// message, needs neither: its size is known when it is made and it is never shared.
///
/// ```swift
/// final class SubscriberState {
///     let pending: UncheckedBuffer<UInt8>
///     init(count: Int) { pending = UncheckedBuffer(count: count, repeating: 0) }
///     func mark(_ index: Int) { pending[index] = 1 }
/// }
/// ```
///
/// Debug builds check every index against ``count`` and trap on one outside it; release builds do
/// not check. The elements are deinitialised and the memory freed in the buffer's `deinit`, so the
/// buffer is not copyable. Not `Sendable`: it belongs to one thread or one event loop.
public struct UncheckedBuffer<Element>: ~Copyable {
    @usableFromInline
    let base: UnsafeMutablePointer<Element>

    /// The number of elements.
    public let count: Int

    /// Allocates `count` elements, each `value`.
    ///
    /// - Complexity: O(`count`).
    @inlinable
    public init(count: Int, repeating value: Element) {
        precondition(count >= 0, "UncheckedBuffer: a negative count")
        self.count = count
        // At least one element's room, so that an empty buffer still has an address of its own.
        base = .allocate(capacity: Swift.max(count, 1))
        base.initialize(repeating: value, count: count)
    }

    /// Allocates a copy of `elements`, in their order.
    ///
    /// - Complexity: O(`elements.count`).
    @inlinable
    public init(_ elements: some Collection<Element>) {
        count = elements.count
        base = .allocate(capacity: Swift.max(count, 1))
        var index = 0
        for element in elements {
            precondition(index < count, "UncheckedBuffer: the collection has more elements than its count")
            (base + index).initialize(to: element)
            index += 1
        }
        precondition(index == count, "UncheckedBuffer: the collection has fewer elements than its count")
    }

    @inlinable
    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// The element at `index`, read and written in place; debug builds trap when `index` is not
    /// in `0..<count`.
    @inlinable
    public subscript(index: Int) -> Element {
        unsafeAddress {
            checkIndex(index)
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            checkIndex(index)
            return base + index
        }
    }

    /// Sets every element to `value`.
    ///
    /// - Complexity: O(`count`).
    @inlinable
    public func update(repeating value: Element) {
        base.update(repeating: value, count: count)
    }

    /// Calls `body` with the elements' memory, which is valid only during the call.
    @inlinable
    public func withUnsafeMutableBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeMutableBufferPointer<Element>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// Calls `body` with the elements' bytes, which are valid only during the call.
    @inlinable
    public func withUnsafeMutableBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(start: base, count: count)))
    }

    @inlinable
    @inline(__always)
    func checkIndex(_ index: Int) {
        #if DEBUG
            precondition(index >= 0 && index < count, "UncheckedBuffer: index \(index) is not in 0..<\(count)")
        #endif
    }
}
