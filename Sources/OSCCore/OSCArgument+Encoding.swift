extension OSCArgument {
    /// The number of type tag characters this argument writes (2 plus the elements' for an array).
    var encodedTagCount: Int {
        guard case .array(let elements) = self else {
            return 1
        }
        var count = 2
        for element in elements {
            count += element.encodedTagCount
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

    /// Writes the type tags at `offset` and returns the offset after them.
    @inline(__always)
    func writeTags(to base: UnsafeMutableRawPointer, at offset: Int) -> Int {
        guard case .array(let elements) = self else {
            base.storeBytes(of: typeTag, toByteOffset: offset, as: UInt8.self)
            return offset + 1
        }
        base.storeBytes(of: OSCTypeTag.arrayStart, toByteOffset: offset, as: UInt8.self)
        var next = offset + 1
        for element in elements {
            next = element.writeTags(to: base, at: next)
        }
        base.storeBytes(of: OSCTypeTag.arrayEnd, toByteOffset: next, as: UInt8.self)
        return next + 1
    }

    /// Writes the data at `offset` and returns the offset after it.
    @inline(__always)
    func writeData(to base: UnsafeMutableRawPointer, at offset: Int) -> Int {
        switch self {
        case .int32(let value):
            OSCWire.storeUInt32(UInt32(bitPattern: value), base, offset)
            return offset + 4
        case .float32(let value):
            OSCWire.storeUInt32(value.bitPattern, base, offset)
            return offset + 4
        case .string(let string), .symbol(let string):
            return OSCWire.write(string, to: base, at: offset)
        case .blob(let bytes):
            OSCWire.storeUInt32(UInt32(truncatingIfNeeded: bytes.count), base, offset + 0)
            return bytes.withUnsafeBytes { raw in
                OSCWire.write(raw, padded: OSCWire.paddedLength(raw.count), to: base, at: offset + 4)
            }
        case .true, .false, .nil, .impulse:
            return offset
        case .timeTag(let timeTag):
            OSCWire.storeUInt64(timeTag.rawValue, base, offset)
            return offset + 8
        case .int64(let value):
            OSCWire.storeUInt64(UInt64(bitPattern: value), base, offset)
            return offset + 8
        case .double(let value):
            OSCWire.storeUInt64(value.bitPattern, base, offset)
            return offset + 8
        case .character(let value):
            OSCWire.storeUInt32(UInt32(value), base, offset)
            return offset + 4
        case .rgba(let value):
            OSCWire.storeUInt32(value.rawValue, base, offset)
            return offset + 4
        case .midi(let value):
            OSCWire.storeUInt32(value.rawValue, base, offset)
            return offset + 4
        case .array(let elements):
            var next = offset
            for element in elements {
                next = element.writeData(to: base, at: next)
            }
            return next
        }
    }
}
