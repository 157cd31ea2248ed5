/// A value that writes itself in OSC's wire format: the one place where messages and bundles
/// share their buffer, append and new-array encoding.
protocol OSCWireEncodable {
    /// The number of bytes ``write(to:at:limit:)`` writes.
    var encodedSize: Int { get }

    /// Writes the value at `offset`, trapping if it would pass `limit`.
    /// - Returns: the number of bytes written.
    func write(to base: UnsafeMutableRawPointer, at offset: Int, limit: Int) -> Int
}

extension OSCWireEncodable {
    /// Writes at the start of `buffer`; a buffer without storage traps with a message naming `kind`.
    func writeAtStart(of buffer: UnsafeMutableRawBufferPointer, kind: StaticString) -> Int {
        guard let base = buffer.baseAddress else {
            preconditionFailure("\(kind).encode(into:) needs \(encodedSize) bytes, got none")
        }
        return write(to: base, at: 0, limit: buffer.count)
    }

    /// Appends the encoding to `bytes` and returns the number of bytes appended.
    func append(to bytes: inout [UInt8]) -> Int {
        let size = encodedSize
        let start = bytes.count
        if start == 0 {
            // Only for a fresh array: reserving exactly before every append would defeat the
            // geometric growth that keeps appending many packets linear.
            bytes.reserveCapacity(size)
        }
        bytes.append(contentsOf: repeatElement(0, count: size))
        bytes.withUnsafeMutableBytes { _ = write(to: $0.baseAddress.unsafelyUnwrapped, at: start, limit: $0.count) }
        return size
    }

    /// The encoding as a new array.
    func makeEncoded() -> [UInt8] {
        // Through reserveCapacity, which is specialised for bytes; Array(unsafeUninitializedCapacity:)
        // took the standard library's generic path and looked up type metadata on every call.
        var bytes: [UInt8] = []
        _ = append(to: &bytes)
        return bytes
    }
}

extension OSCMessage: OSCWireEncodable {}
extension OSCBundle: OSCWireEncodable {}
