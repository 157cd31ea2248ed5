extension OSCArgument {
    /// The number of type tag characters this argument writes (2 plus the elements' for an array).
    var encodedTagCount: Int {
        guard case .array(let elements) = self else {
            return 1
        }
        return elements.withUnsafeBufferPointer { OSCArgument.tagCount(of: $0) }
    }

    /// The number of type tag characters a list of arguments writes.
    static func tagCount(of arguments: UnsafeBufferPointer<OSCArgument>) -> Int {
        var count = arguments.count
        for index in arguments.indices {
            // Matching without binding the payload keeps this loop free of reference counting.
            if case .array = arguments[index] {
                count += arguments[index].encodedTagCount + 1
            }
        }
        return count
    }

    /// The number of data bytes this argument writes, padding included.
    var encodedDataSize: Int {
        switch self {
        case .int32, .float32, .character, .rgba, .midi: 4
        case .int64, .double, .timeTag: 8
        case .true, .false, .nil, .impulse: 0
        case .string(let string), .symbol(let string): OSCWire.encodedSize(of: string)
        case .blob(let bytes): 4 + OSCWire.paddedLength(bytes.count)
        case .array(let elements): elements.reduce(0) { $0 + $1.encodedDataSize }
        }
    }

    /// Writes the argument's type tags at `tag` and its data at `data`, checking `data`'s room
    /// against `limit`.
    ///
    /// Arrays go through ``writeArray(_:to:tag:data:limit:)``, out of line, so that this switch,
    /// free of recursion, can be inlined into the caller's loop.
    /// - Returns: the offsets after the tags and after the data.
    @inline(__always)
    func write(
        to base: UnsafeMutableRawPointer, tag: Int, data: Int, limit: Int
    ) -> (tag: Int, data: Int) {
        switch self {
        case .int32(let value):
            return Self.write32(UInt32(bitPattern: value), OSCTypeTag.int32, base, tag, data, limit)
        case .float32(let value):
            return Self.write32(value.bitPattern, OSCTypeTag.float32, base, tag, data, limit)
        case .string(let string):
            base.storeBytes(of: OSCTypeTag.string, toByteOffset: tag, as: UInt8.self)
            return (tag + 1, OSCWire.write(string, to: base, at: data, limit: limit))
        case .symbol(let string):
            base.storeBytes(of: OSCTypeTag.symbol, toByteOffset: tag, as: UInt8.self)
            return (tag + 1, OSCWire.write(string, to: base, at: data, limit: limit))
        case .blob(let bytes):
            base.storeBytes(of: OSCTypeTag.blob, toByteOffset: tag, as: UInt8.self)
            let next = bytes.withUnsafeBytes { raw in
                precondition(raw.count <= Int(Int32.max), "an OSC blob holds at most 2^31 - 1 bytes")
                let padded = OSCWire.paddedLength(raw.count)
                OSCWire.checkRoom(data + 4 + padded, limit)
                OSCWire.storeUInt32(UInt32(truncatingIfNeeded: raw.count), base, data)
                return OSCWire.write(raw, padded: padded, to: base, at: data + 4)
            }
            return (tag + 1, next)
        case .true:
            base.storeBytes(of: OSCTypeTag.true, toByteOffset: tag, as: UInt8.self)
            return (tag + 1, data)
        case .false:
            base.storeBytes(of: OSCTypeTag.false, toByteOffset: tag, as: UInt8.self)
            return (tag + 1, data)
        case .nil:
            base.storeBytes(of: OSCTypeTag.nil, toByteOffset: tag, as: UInt8.self)
            return (tag + 1, data)
        case .impulse:
            base.storeBytes(of: OSCTypeTag.impulse, toByteOffset: tag, as: UInt8.self)
            return (tag + 1, data)
        case .timeTag(let timeTag):
            return Self.write64(timeTag.rawValue, OSCTypeTag.timeTag, base, tag, data, limit)
        case .int64(let value):
            return Self.write64(UInt64(bitPattern: value), OSCTypeTag.int64, base, tag, data, limit)
        case .double(let value):
            return Self.write64(value.bitPattern, OSCTypeTag.double, base, tag, data, limit)
        case .character(let value):
            return Self.write32(UInt32(value), OSCTypeTag.character, base, tag, data, limit)
        case .rgba(let value):
            return Self.write32(value.rawValue, OSCTypeTag.rgba, base, tag, data, limit)
        case .midi(let value):
            return Self.write32(value.rawValue, OSCTypeTag.midi, base, tag, data, limit)
        case .array(let elements):
            return Self.writeArray(elements, to: base, tag: tag, data: data, limit: limit)
        }
    }

    @inline(never)
    static func writeArray(
        _ elements: [OSCArgument], to base: UnsafeMutableRawPointer, tag: Int, data: Int, limit: Int
    ) -> (tag: Int, data: Int) {
        base.storeBytes(of: OSCTypeTag.arrayStart, toByteOffset: tag, as: UInt8.self)
        var next = (tag: tag + 1, data: data)
        for index in elements.indices {
            next = elements[index].write(to: base, tag: next.tag, data: next.data, limit: limit)
        }
        base.storeBytes(of: OSCTypeTag.arrayEnd, toByteOffset: next.tag, as: UInt8.self)
        return (next.tag + 1, next.data)
    }

    @inline(__always)
    private static func write32(
        _ value: UInt32, _ typeTag: UInt8, _ base: UnsafeMutableRawPointer, _ tag: Int, _ data: Int, _ limit: Int
    ) -> (tag: Int, data: Int) {
        OSCWire.checkRoom(data + 4, limit)
        base.storeBytes(of: typeTag, toByteOffset: tag, as: UInt8.self)
        OSCWire.storeUInt32(value, base, data)
        return (tag + 1, data + 4)
    }

    @inline(__always)
    private static func write64(
        _ value: UInt64, _ typeTag: UInt8, _ base: UnsafeMutableRawPointer, _ tag: Int, _ data: Int, _ limit: Int
    ) -> (tag: Int, data: Int) {
        OSCWire.checkRoom(data + 8, limit)
        base.storeBytes(of: typeTag, toByteOffset: tag, as: UInt8.self)
        OSCWire.storeUInt64(value, base, data)
        return (tag + 1, data + 8)
    }
}
