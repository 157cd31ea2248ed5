extension OSCWire {
    /// Calls `body` with the UTF-8 bytes of `string` up to its first NUL, as a C peer would send it.
    @inline(__always)
    static func withWireBytes<R>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var string = string
        return string.withUTF8 { utf8 in
            var length = 0
            let count = utf8.count
            while length < count && utf8[length] != 0 {
                length &+= 1
            }
            return body(UnsafeBufferPointer(rebasing: utf8[..<length]))
        }
    }

    /// The encoded size of `string`: its bytes up to the first NUL, a NUL, and padding.
    @inline(__always)
    static func encodedSize(of string: String) -> Int {
        withWireBytes(of: string) { paddedStringLength($0.count) }
    }

    /// Writes `string` (up to its first NUL), its NUL and padding at `offset`.
    /// - Returns: the offset after the padding.
    @inline(__always)
    static func write(_ string: String, to base: UnsafeMutableRawPointer, at offset: Int) -> Int {
        withWireBytes(of: string) { utf8 in
            write(UnsafeRawBufferPointer(utf8), padded: paddedStringLength(utf8.count), to: base, at: offset)
        }
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
