import OSCCore

/// Packs outgoing messages into bundles no larger than a datagram limit and hands each finished
/// packet to `emit`; one message alone goes out bare.
///
/// The buffers are reused from packet to packet, so building feedback allocates nothing after the
/// first packets. Owned by the server's event loop.
final class PacketBuilder {
    private static let bundleHeader: [UInt8] = Array("#bundle".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
    private static let floatTags: [UInt8] = [0x2C, 0x66, 0, 0]
    private static let intTags: [UInt8] = [0x2C, 0x69, 0, 0]
    private static let headerSize = 16

    private var buffer: [UInt8] = []
    private var scratch: [UInt8] = []
    private var count = 0
    private var limit = 1472
    private let emit: (UnsafeRawBufferPointer) -> Void

    /// Creates a builder that hands each finished packet to `emit`.
    init(emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.emit = emit
        buffer.reserveCapacity(1 << 16)
        scratch.reserveCapacity(1 << 16)
    }

    /// Starts a run of messages for one destination; `limit` is its datagram size.
    func begin(limit: Int) {
        self.limit = limit
        buffer.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Sends what is left.
    func end() {
        emitCurrent()
    }

    /// Appends `address ,f value`; `address` is already padded.
    func appendFloat(address: [UInt8], _ value: Float) {
        let start = startMessage()
        buffer.append(contentsOf: address)
        buffer.append(contentsOf: Self.floatTags)
        appendBigEndian(value.bitPattern)
        finishMessage(sizeAt: start)
    }

    /// Appends `address ,i value`; `address` is already padded.
    func appendInt(address: [UInt8], _ value: Int32) {
        let start = startMessage()
        buffer.append(contentsOf: address)
        buffer.append(contentsOf: Self.intTags)
        appendBigEndian(UInt32(bitPattern: value))
        finishMessage(sizeAt: start)
    }

    /// Appends any message.
    func append(_ message: OSCMessage) {
        let start = startMessage()
        _ = message.encode(appendingTo: &buffer)
        finishMessage(sizeAt: start)
    }

    private func appendBigEndian(_ value: UInt32) {
        buffer.append(UInt8(truncatingIfNeeded: value >> 24))
        buffer.append(UInt8(truncatingIfNeeded: value >> 16))
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value))
    }

    private func startMessage() -> Int {
        if count == 0 {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: Self.bundleHeader)
        }
        let sizeAt = buffer.count
        buffer.append(contentsOf: [0, 0, 0, 0] as [UInt8])
        return sizeAt
    }

    private func finishMessage(sizeAt: Int) {
        let size = UInt32(buffer.count - sizeAt - 4)
        buffer[sizeAt] = UInt8(truncatingIfNeeded: size >> 24)
        buffer[sizeAt + 1] = UInt8(truncatingIfNeeded: size >> 16)
        buffer[sizeAt + 2] = UInt8(truncatingIfNeeded: size >> 8)
        buffer[sizeAt + 3] = UInt8(truncatingIfNeeded: size)
        guard buffer.count > limit, count > 0 else {
            count += 1
            return
        }
        // The new message does not fit: send the others, then start again with it alone.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: buffer[sizeAt...])
        buffer.removeSubrange(sizeAt...)
        emitCurrent()
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: Self.bundleHeader)
        buffer.append(contentsOf: scratch)
        count = 1
    }

    private func emitCurrent() {
        guard count > 0 else { return }
        buffer.withUnsafeBytes { bytes in
            if count == 1 {
                // A lone message goes out bare: simple peers need not read bundles.
                emit(UnsafeRawBufferPointer(rebasing: bytes[(Self.headerSize + 4)...]))
            } else {
                emit(bytes)
            }
        }
        buffer.removeAll(keepingCapacity: true)
        count = 0
    }
}
