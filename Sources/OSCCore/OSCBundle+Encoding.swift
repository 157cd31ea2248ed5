extension OSCBundle {
    /// The number of bytes ``encode(into:)`` writes: 16 for the header and time tag, then 4 plus
    /// the size of each element.
    public var encodedSize: Int {
        var size = 16
        for element in elements {
            size += 4 + element.encodedSize
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
        let size = encodedSize
        precondition(buffer.count >= size, "OSCBundle.encode(into:) needs \(size) bytes, got \(buffer.count)")
        return write(to: buffer.baseAddress.unsafelyUnwrapped, at: 0)
    }

    /// Appends the encoded bundle to `bytes`.
    /// - Returns: the number of bytes appended.
    @discardableResult
    public func encode(appendingTo bytes: inout [UInt8]) -> Int {
        let size = encodedSize
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: size))
        bytes.withUnsafeMutableBytes { _ = write(to: $0.baseAddress.unsafelyUnwrapped, at: start) }
        return size
    }

    /// The encoded bundle as a new array.
    public func encoded() -> [UInt8] {
        let size = encodedSize
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            _ = write(to: UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped), at: 0)
            initialized = size
        }
    }

    /// Writes the bundle at `offset` into memory known to be large enough.
    func write(to base: UnsafeMutableRawPointer, at offset: Int) -> Int {
        base.storeBytes(of: OSCWire.bundleHeader, toByteOffset: offset, as: UInt64.self)
        OSCWire.storeUInt64(timeTag.rawValue, base, offset + 8)
        var next = offset + 16
        for element in elements {
            // Sizes are filled in after each element is written, so nested sizes are computed once.
            let size = element.write(to: base, at: next + 4)
            OSCWire.storeUInt32(UInt32(truncatingIfNeeded: size), base, next)
            next += 4 + size
        }
        return next - offset
    }
}
