/// The arguments of a decoded message (or the elements of an array argument), read in place.
///
/// Iterating reads each argument's size from its type tag and, for strings and blobs, from its
/// bytes; nothing is allocated. The sequence is only as valid as the buffer it reads.
public struct OSCArgumentSequence: Sequence {
    @usableFromInline let tags: UnsafeRawBufferPointer
    @usableFromInline let data: UnsafeRawPointer?

    @inlinable
    init(tags: UnsafeRawBufferPointer, data: UnsafeRawPointer?) {
        self.tags = tags
        self.data = data
    }

    /// Returns an iterator over the arguments.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(tags: tags.baseAddress, index: 0, count: tags.count, data: data)
    }

    /// Reads one argument after another; stops at the end of the tags or at the `]` closing the
    /// array it iterates.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var tags: UnsafeRawPointer?
        @usableFromInline var index: Int
        @usableFromInline var count: Int
        @usableFromInline var data: UnsafeRawPointer?

        @inlinable
        init(tags: UnsafeRawPointer?, index: Int, count: Int, data: UnsafeRawPointer?) {
            self.tags = tags
            self.index = index
            self.count = count
            self.data = data
        }

        /// Returns the next argument, or `nil` after the last.
        @inlinable
        public mutating func next() -> OSCArgumentView? {
            guard index < count, let tags, let start = data else {
                return nil
            }
            let typeTag = tags.load(fromByteOffset: index, as: UInt8.self)
            index &+= 1
            let fixed = OSCWire.fixedSize(of: typeTag)
            if fixed >= 0 {
                data = start + fixed
                return OSCArgumentView(typeTag: typeTag, start: start, count: fixed, tags: nil)
            }
            return nextOfVariableSize(typeTag, fixed, start, tags)
        }

        /// The slow half of ``next()``: strings, blobs, arrays and the `]` that ends an array.
        @usableFromInline
        mutating func nextOfVariableSize(
            _ typeTag: UInt8, _ fixed: Int, _ start: UnsafeRawPointer, _ tags: UnsafeRawPointer
        ) -> OSCArgumentView? {
            switch fixed {
            case -1:
                let length = Self.stringLength(start)
                data = start + OSCWire.paddedStringLength(length)
                return OSCArgumentView(typeTag: typeTag, start: start, count: length, tags: nil)
            case -2:
                let length = Int(OSCWire.loadInt32(start, 0))
                data = start + 4 + OSCWire.paddedLength(length)
                return OSCArgumentView(typeTag: typeTag, start: start + 4, count: length, tags: nil)
            case -3:
                var inner = Iterator(tags: tags, index: index, count: count, data: start)
                while inner.next() != nil {}
                // The inner iterator stopped on the matching `]`, which sits just before `inner.index`.
                let elementTags = tags + index
                let elementData = inner.data.unsafelyUnwrapped
                index = inner.index
                data = elementData
                return OSCArgumentView(typeTag: typeTag, start: start, count: elementData - start, tags: elementTags)
            default:
                // A `]` ends the array this iterator walks; stay finished.
                count = index
                return nil
            }
        }

        /// The length of a validated, NUL-terminated, word-padded string starting at `start`.
        @inline(__always)
        static func stringLength(_ start: UnsafeRawPointer) -> Int {
            var word = 0
            while true {
                let value = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: word, as: UInt32.self))
                let zeros = (value &- 0x0101_0101) & ~value & 0x8080_8080
                if zeros != 0 {
                    return word + zeros.trailingZeroBitCount >> 3
                }
                word &+= 4
            }
        }
    }
}
