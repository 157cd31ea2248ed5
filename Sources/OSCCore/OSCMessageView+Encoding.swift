extension OSCMessageView {
    /// The number of bytes ``writeCanonical(to:at:limit:)`` writes.
    var canonicalSize: Int {
        var size = OSCWire.paddedStringLength(addressLength) + OSCWire.paddedStringLength(1 + tagsLength)
        forEachDataPart { _, _, padded in size &+= padded }
        return size
    }

    /// Writes the message as the encoder writes one built from values: the address and type tags
    /// up to their NUL and zero-padded, a `,` type tag string even when the packet had none, each
    /// argument's data with zero padding, and nothing after the last argument.
    ///
    /// A validated message differs from that form only in its padding, a missing type tag string
    /// and trailing bytes (see ``OSCDecodingOptions``), so the data is copied part by part.
    /// - Returns: the number of bytes written.
    func writeCanonical(to destination: UnsafeMutableRawPointer, at offset: Int, limit: Int) -> Int {
        OSCWire.checkRoom(offset + canonicalSize, limit)
        var next = OSCWire.write(
            addressBytes, padded: OSCWire.paddedStringLength(addressLength), to: destination, at: offset)
        let tagsPadded = OSCWire.paddedStringLength(1 + tagsLength)
        destination.storeBytes(of: 0, toByteOffset: next + tagsPadded - 4, as: UInt32.self)
        destination.storeBytes(of: UInt8(ascii: ","), toByteOffset: next, as: UInt8.self)
        if tagsLength > 0 {
            (destination + next + 1).copyMemory(from: typeTags.baseAddress.unsafelyUnwrapped, byteCount: tagsLength)
        }
        next += tagsPadded
        forEachDataPart { start, length, padded in
            next = OSCWire.write(
                UnsafeRawBufferPointer(start: start, count: length), padded: padded, to: destination, at: next)
        }
        return next - offset
    }

    /// Calls `body` with each argument's data in order, arrays flattened: where it starts, how many
    /// bytes of it are meaningful, and how many it takes with its padding.
    private func forEachDataPart(_ body: (UnsafeRawPointer, Int, Int) -> Void) {
        let tags = base + tagsStart
        var data = base + argumentsStart
        for index in 0..<tagsLength {
            let tag = tags.load(fromByteOffset: index, as: UInt8.self)
            let fixed = OSCWire.fixedSize(of: tag)
            switch fixed {
            case 0...:
                if fixed > 0 {
                    body(data, fixed, fixed)
                }
                data += fixed
            case -1:
                let length = OSCArgumentSequence.Iterator.stringLength(data)
                let padded = OSCWire.paddedStringLength(length)
                body(data, length, padded)
                data += padded
            case -2:
                let length = Int(OSCWire.loadInt32(data, 0))
                let padded = 4 + OSCWire.paddedLength(length)
                body(data, 4 + length, padded)
                data += padded
            default:
                // `[` and `]` have no data.
                break
            }
        }
    }
}
