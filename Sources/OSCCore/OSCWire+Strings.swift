extension OSCWire {
    /// Calls `body` with the UTF-8 bytes of `string` up to its first NUL, as a C peer would send it.
    @inline(__always)
    static func withWireBytes<R>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let upToNUL = { (utf8: UnsafeBufferPointer<UInt8>) in
            body(UnsafeBufferPointer(start: utf8.baseAddress, count: lengthBeforeNUL(utf8)))
        }
        // Read in place, without the copy (a retain and a release) that `withUTF8` would need to
        // be allowed to make the string contiguous: a native or small string always is.
        if let result = string.utf8.withContiguousStorageIfAvailable(upToNUL) {
            return result
        }
        var string = string
        return string.withUTF8(upToNUL)
    }

    /// The number of bytes before the first NUL in `bytes` (all of them if there is none), read
    /// eight bytes at a time: a Swift string rarely holds a NUL, but C peers stop at one.
    @inline(__always)
    static func lengthBeforeNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else {
            return 0
        }
        let count = bytes.count
        var offset = 0
        while offset &+ 8 <= count {
            let value = UInt64(
                littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let zeros = (value &- 0x0101_0101_0101_0101) & ~value & 0x8080_8080_8080_8080
            if zeros != 0 {
                return offset &+ zeros.trailingZeroBitCount >> 3
            }
            offset &+= 8
        }
        while offset < count && base[offset] != 0 {
            offset &+= 1
        }
        return offset
    }

    /// The encoded size of `string`: its bytes up to the first NUL, a NUL, and padding.
    @inline(__always)
    static func encodedSize(of string: String) -> Int {
        withWireBytes(of: string) { paddedStringLength($0.count) }
    }

    /// Writes `string` (up to its first NUL), its NUL and padding at `offset`, trapping if that
    /// would pass `limit`.
    /// - Returns: the offset after the padding.
    @inline(__always)
    static func write(_ string: String, to base: UnsafeMutableRawPointer, at offset: Int, limit: Int) -> Int {
        withWireBytes(of: string) { utf8 in
            let padded = paddedStringLength(utf8.count)
            checkRoom(offset + padded, limit)
            return write(UnsafeRawBufferPointer(utf8), padded: padded, to: base, at: offset)
        }
    }

    /// Traps unless `end` is within `limit`: encoding into a buffer smaller than the encoded
    /// size is a programming error, like indexing past the end of an array.
    @inline(__always)
    static func checkRoom(_ end: Int, _ limit: Int) {
        precondition(end <= limit, "OSC encoding needs more room than the buffer has")
    }

    /// Writes `bytes` followed by zeros up to `padded` bytes (a multiple of 4, at least 4 when
    /// non-zero) at `offset`.
    /// - Returns: the offset after the padding.
    @inline(__always)
    static func write(
        _ bytes: UnsafeRawBufferPointer, padded: Int, to base: UnsafeMutableRawPointer, at offset: Int
    ) -> Int {
        if padded > 0 {
            // Zero the last word first; the bytes then overwrite whatever part of it they cover.
            base.storeBytes(of: 0, toByteOffset: offset + padded - 4, as: UInt32.self)
        }
        if let source = bytes.baseAddress, !bytes.isEmpty {
            (base + offset).copyMemory(from: source, byteCount: bytes.count)
        }
        return offset + padded
    }
}
