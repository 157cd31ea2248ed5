extension OSCPacket {
    /// The number of bytes ``encode(into:)`` writes.
    public var encodedSize: Int {
        switch self {
        case .message(let message): message.encodedSize
        case .bundle(let bundle): bundle.encodedSize
        }
    }

    /// Writes the packet at the start of `buffer`, byte for byte as liblo would.
    /// - Parameter buffer: room for at least ``encodedSize`` bytes; a smaller buffer traps.
    /// - Returns: the number of bytes written.
    @discardableResult
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        switch self {
        case .message(let message): message.encode(into: buffer)
        case .bundle(let bundle): bundle.encode(into: buffer)
        }
    }

    /// Appends the encoded packet to `bytes`.
    /// - Returns: the number of bytes appended.
    @discardableResult
    public func encode(appendingTo bytes: inout [UInt8]) -> Int {
        switch self {
        case .message(let message): message.encode(appendingTo: &bytes)
        case .bundle(let bundle): bundle.encode(appendingTo: &bytes)
        }
    }

    /// The encoded packet as a new array.
    public func encoded() -> [UInt8] {
        switch self {
        case .message(let message): message.encoded()
        case .bundle(let bundle): bundle.encoded()
        }
    }

    func write(to base: UnsafeMutableRawPointer, at offset: Int, limit: Int) -> Int {
        switch self {
        case .message(let message): message.write(to: base, at: offset, limit: limit)
        case .bundle(let bundle): bundle.write(to: base, at: offset, limit: limit)
        }
    }
}
