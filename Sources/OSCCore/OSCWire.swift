/// Byte-level helpers shared by the decoder and the encoder.
///
/// Offsets handed to these functions have already been checked against the buffer's bounds by
/// the caller; they load and store without bounds checks, which is what keeps decoding fast.
@usableFromInline
enum OSCWire {
    /// `#bundle` and its NUL, as the 8 bytes load in memory order.
    @inlinable static var bundleHeader: UInt64 { UInt64(bigEndian: 0x2362_756E_646C_6500) }

    @inlinable @inline(__always)
    static func loadUInt32(_ base: UnsafeRawPointer, _ offset: Int) -> UInt32 {
        UInt32(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inlinable @inline(__always)
    static func loadUInt64(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inlinable @inline(__always)
    static func loadInt32(_ base: UnsafeRawPointer, _ offset: Int) -> Int32 {
        Int32(bitPattern: loadUInt32(base, offset))
    }

    @inlinable @inline(__always)
    static func storeUInt32(_ value: UInt32, _ base: UnsafeMutableRawPointer, _ offset: Int) {
        base.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
    }

    @inlinable @inline(__always)
    static func storeUInt64(_ value: UInt64, _ base: UnsafeMutableRawPointer, _ offset: Int) {
        base.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt64.self)
    }

    /// The number of data bytes of a fixed-size type tag, 0 for the tags without data, or a
    /// negative marker: -1 string, -2 blob, -3 array start, -4 array end, -5 unknown.
    @inlinable @inline(__always)
    static func fixedSize(of tag: UInt8) -> Int {
        switch tag {
        case OSCTypeTag.int32, OSCTypeTag.float32, OSCTypeTag.character, OSCTypeTag.rgba, OSCTypeTag.midi: 4
        case OSCTypeTag.int64, OSCTypeTag.double, OSCTypeTag.timeTag: 8
        case OSCTypeTag.true, OSCTypeTag.false, OSCTypeTag.nil, OSCTypeTag.impulse: 0
        case OSCTypeTag.string, OSCTypeTag.symbol: -1
        case OSCTypeTag.blob: -2
        case OSCTypeTag.arrayStart: -3
        case OSCTypeTag.arrayEnd: -4
        default: -5
        }
    }

    /// Finds the NUL that ends the string starting at `start`, scanning a 4-byte word at a time.
    ///
    /// `start` and `end` must be 4-aligned relative to each other, which holds for every string of a
    /// message whose length is a multiple of 4.
    /// - Returns: the offset of the NUL, or `nil` if none comes before `end`.
    @inlinable @inline(__always)
    static func findNUL(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        var word = start
        // Eight bytes at a time while they fit, then the last word on its own.
        while word &+ 8 <= end {
            let value = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: word, as: UInt64.self))
            let zeros = (value &- 0x0101_0101_0101_0101) & ~value & 0x8080_8080_8080_8080
            if zeros != 0 {
                return word + zeros.trailingZeroBitCount >> 3
            }
            word &+= 8
        }
        while word < end {
            // Little-endian order puts the byte at the lowest address in the lowest bits, so the
            // lowest flagged byte is the first NUL (the trick's false positives only sit above a NUL).
            let value = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: word, as: UInt32.self))
            let zeros = (value &- 0x0101_0101) & ~value & 0x8080_8080
            if zeros != 0 {
                return word + zeros.trailingZeroBitCount >> 3
            }
            word &+= 4
        }
        return nil
    }

    /// The offset of the first non-zero byte in `start ..< end`, if any.
    static func firstNonZero(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        var offset = start
        while offset < end {
            if base.load(fromByteOffset: offset, as: UInt8.self) != 0 {
                return offset
            }
            offset &+= 1
        }
        return nil
    }

    /// The padded length of a string of `length` bytes: its NUL plus up to three more.
    @inlinable @inline(__always)
    static func paddedStringLength(_ length: Int) -> Int {
        (length &+ 4) & ~3
    }

    /// The padded length of `length` data bytes (a blob's content).
    @inlinable @inline(__always)
    static func paddedLength(_ length: Int) -> Int {
        (length &+ 3) & ~3
    }
}
