extension OSCMessage {
    /// The number of bytes ``encode(into:)`` writes.
    ///
    /// - Complexity: O(n) in the number of arguments and the length of the strings.
    public var encodedSize: Int {
        guard case .values(let address, let arguments) = representation else {
            return withView { $0.canonicalSize }
        }
        return arguments.withUnsafeBufferPointer { arguments in
            var dataSize = 0
            for index in arguments.indices {
                dataSize += arguments[index].encodedDataSize
            }
            let tags = OSCArgument.tagCount(of: arguments)
            return OSCWire.encodedSize(of: address) + OSCWire.paddedStringLength(tags + 1) + dataSize
        }
    }

    /// Writes the message at the start of `buffer`, byte for byte as liblo's `lo_message_serialise`
    /// would.
    ///
    /// Strings (the address included) are written up to their first NUL. A message without
    /// arguments still gets the type tag string `,`. A decoded message is written from the bytes it
    /// was decoded from, in the same form: zero padding, a type tag string even if the packet had
    /// none, and nothing after the last argument.
    /// - Parameter buffer: room for at least ``encodedSize`` bytes; a smaller buffer is a
    ///   programming error and traps.
    /// - Returns: the number of bytes written, ``encodedSize``.
    /// - Complexity: O(n) in the size of the message; nothing is allocated.
    @discardableResult
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        writeAtStart(of: buffer, kind: "OSCMessage")
    }

    /// Appends the encoded message to `bytes`.
    /// - Returns: the number of bytes appended.
    @discardableResult
    public func encode(appendingTo bytes: inout [UInt8]) -> Int {
        append(to: &bytes)
    }

    /// The encoded message as a new array.
    public func encoded() -> [UInt8] {
        makeEncoded()
    }

    /// Writes the message at `offset`, trapping if it would pass `limit`.
    /// - Returns: the number of bytes written.
    @inline(__always)
    func write(to base: UnsafeMutableRawPointer, at offset: Int, limit: Int) -> Int {
        guard case .values(let address, let arguments) = representation else {
            return withView { $0.writeCanonical(to: base, at: offset, limit: limit) }
        }
        let tagsStart = OSCWire.write(address, to: base, at: offset, limit: limit)
        // Through the buffer: its subscript lends each argument in place, where the array's copies
        // it out (a retain and a release of every string and blob).
        return arguments.withUnsafeBufferPointer { arguments in
            let dataStart = tagsStart + OSCWire.paddedStringLength(1 + OSCArgument.tagCount(of: arguments))
            OSCWire.checkRoom(dataStart, limit)
            // Zero the type tag string's last word first, so that its NUL and padding are in place.
            base.storeBytes(of: 0, toByteOffset: dataStart - 4, as: UInt32.self)
            base.storeBytes(of: UInt8(ascii: ","), toByteOffset: tagsStart, as: UInt8.self)
            var next = (tag: tagsStart + 1, data: dataStart)
            for index in arguments.indices {
                next = arguments[index].write(to: base, tag: next.tag, data: next.data, limit: limit)
            }
            return next.data - offset
        }
    }
}
