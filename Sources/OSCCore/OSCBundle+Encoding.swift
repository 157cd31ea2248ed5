extension OSCBundle {
    /// The number of bytes ``encode(into:)`` writes: 16 for the header and time tag, then 4 plus
    /// the size of each element.
    public var encodedSize: Int {
        let elements = self.elements
        var size = 16
        for index in elements.indices {
            size += 4 + elements[index].encodedSize
        }
        return size
    }

    /// Writes the bundle at the start of `buffer`, byte for byte as liblo's `lo_bundle_serialise`
    /// would: `#bundle`, the time tag, then each element preceded by its int32 size.
    /// - Parameter buffer: room for at least ``encodedSize`` bytes; a smaller buffer traps.
    /// - Returns: the number of bytes written.
    /// - Complexity: O(n) in the size of the bundle; nothing is allocated.
    @discardableResult
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        writeAtStart(of: buffer, kind: "OSCBundle")
    }

    /// Appends the encoded bundle to `bytes`.
    /// - Returns: the number of bytes appended.
    @discardableResult
    public func encode(appendingTo bytes: inout [UInt8]) -> Int {
        append(to: &bytes)
    }

    /// The encoded bundle as a new array.
    public func encoded() -> [UInt8] {
        makeEncoded()
    }

    /// Writes the bundle at `offset`, trapping if it would pass `limit`.
    /// - Returns: the number of bytes written.
    func write(to base: UnsafeMutableRawPointer, at offset: Int, limit: Int) -> Int {
        OSCWire.checkRoom(offset + 16, limit)
        base.storeBytes(of: OSCWire.bundleHeader, toByteOffset: offset, as: UInt64.self)
        // One read each: a decoded bundle makes its elements on every read.
        let (timeTag, elements) = (self.timeTag, self.elements)
        OSCWire.storeUInt64(timeTag.rawValue, base, offset + 8)
        var next = offset + 16
        elements.withUnsafeBufferPointer { elements in
            for index in elements.indices {
                // Each size is filled in after its element is written, so nothing is measured twice.
                OSCWire.checkRoom(next + 4, limit)
                let size = elements[index].write(to: base, at: next + 4, limit: limit)
                OSCWire.storeUInt32(UInt32(truncatingIfNeeded: size), base, next)
                next += 4 + size
            }
        }
        return next - offset
    }
}
