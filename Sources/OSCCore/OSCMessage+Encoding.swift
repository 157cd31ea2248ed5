extension OSCMessage {
    /// The number of bytes ``encode(into:)`` writes.
    ///
    /// - Complexity: O(n) in the number of arguments and the length of the strings.
    public var encodedSize: Int {
        var tagCount = 1
        var dataSize = 0
        for argument in arguments {
            tagCount += argument.encodedTagCount
            dataSize += argument.encodedDataSize
        }
        return OSCWire.encodedSize(of: address) + OSCWire.paddedStringLength(tagCount) + dataSize
    }

    /// Writes the message at the start of `buffer`, byte for byte as liblo's `lo_message_serialise`
    /// would.
    ///
    /// Strings (the address included) are written up to their first NUL. A message without
    /// arguments still gets the type tag string `,`.
    /// - Parameter buffer: room for at least ``encodedSize`` bytes; a smaller buffer is a
    ///   programming error and traps.
    /// - Returns: the number of bytes written, ``encodedSize``.
    /// - Complexity: O(n) in the size of the message; nothing is allocated.
    @discardableResult
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let size = encodedSize
        precondition(buffer.count >= size, "OSCMessage.encode(into:) needs \(size) bytes, got \(buffer.count)")
        return write(to: buffer.baseAddress.unsafelyUnwrapped, at: 0)
    }

    /// Appends the encoded message to `bytes`.
    /// - Returns: the number of bytes appended.
    @discardableResult
    public func encode(appendingTo bytes: inout [UInt8]) -> Int {
        let size = encodedSize
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: size))
        bytes.withUnsafeMutableBytes { _ = write(to: $0.baseAddress.unsafelyUnwrapped, at: start) }
        return size
    }

    /// The encoded message as a new array.
    public func encoded() -> [UInt8] {
        let size = encodedSize
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            _ = write(to: UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped), at: 0)
            initialized = size
        }
    }

    /// Writes the message at `offset` into memory known to be large enough.
    func write(to base: UnsafeMutableRawPointer, at offset: Int) -> Int {
        var next = OSCWire.write(address, to: base, at: offset)
        var tagEnd = next + 1
        for argument in arguments {
            tagEnd += argument.encodedTagCount
        }
        // Zero the type tag string's last word first, so that its NUL and padding are in place.
        let dataStart = next + OSCWire.paddedStringLength(tagEnd - next)
        base.storeBytes(of: 0, toByteOffset: dataStart - 4, as: UInt32.self)
        base.storeBytes(of: UInt8(ascii: ","), toByteOffset: next, as: UInt8.self)
        next += 1
        for argument in arguments {
            next = argument.writeTags(to: base, at: next)
        }
        next = dataStart
        for argument in arguments {
            next = argument.writeData(to: base, at: next)
        }
        return next - offset
    }
}
