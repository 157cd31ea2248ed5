import OSCCore

/// Packs outgoing messages into bundles no larger than a datagram limit and hands each finished
/// packet to `emit`; one message alone goes out bare.
///
/// The bytes live in one raw buffer reused from packet to packet, so building feedback allocates
/// nothing after the first packets. Its state sits behind a pointer rather than in stored
/// properties: every value of every feedback packet passes through here, and a class's stored
/// `Array` paid a dynamic exclusivity check and a uniqueness check on each append. Owned by the
/// server's event loop.
final class PacketBuilder {
    private static let bundleHeader: [UInt8] = Array("#bundle".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
    private static let headerSize = 16

    private struct State {
        var bytes: UnsafeMutableRawPointer
        var capacity: Int
        /// Bytes used, the bundle header included.
        var count = 0
        /// Messages in the bundle being built.
        var messages = 0
        var limit = 1472
    }

    private let state: UnsafeMutablePointer<State>
    private let emit: (UnsafeRawBufferPointer) -> Void
    /// For messages of any shape, encoded by OSCCore before they are copied in.
    private var scratch: [UInt8] = []

    /// Creates a builder that hands each finished packet to `emit`.
    init(emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.emit = emit
        let capacity = 1 << 16
        state = .allocate(capacity: 1)
        state.initialize(to: State(bytes: .allocate(byteCount: capacity, alignment: 16), capacity: capacity))
        scratch.reserveCapacity(1 << 12)
    }

    deinit {
        state.pointee.bytes.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Starts a run of messages for one destination; `limit` is its datagram size.
    func begin(limit: Int) {
        state.pointee.limit = limit
        state.pointee.count = 0
        state.pointee.messages = 0
    }

    /// Sends what is left.
    func end() {
        emitCurrent()
    }

    /// Appends `address ,f value`; `address` is already padded.
    func appendFloat(address: [UInt8], _ value: Float) {
        appendNumber(address: address, tag: 0x66, value.bitPattern)
    }

    /// Appends `address ,i value`; `address` is already padded.
    func appendInt(address: [UInt8], _ value: Int32) {
        appendNumber(address: address, tag: 0x69, UInt32(bitPattern: value))
    }

    /// Appends `address ,f value`; the `count` bytes at `address` are already padded.
    func appendFloat(address: UnsafeRawPointer, count: Int, _ value: Float) {
        appendNumber(address: address, count: count, tag: 0x66, value.bitPattern)
    }

    @inline(__always)
    private func appendNumber(address: [UInt8], tag: UInt8, _ value: UInt32) {
        address.withUnsafeBytes { appendNumber(address: $0.baseAddress!, count: $0.count, tag: tag, value) }
    }

    @inline(__always)
    private func appendNumber(address: UnsafeRawPointer, count: Int, tag: UInt8, _ value: UInt32) {
        let size = count + 8
        let start = startMessage(size: size)
        let bytes = state.pointee.bytes
        bytes.advanced(by: start + 4).copyMemory(from: address, byteCount: count)
        let tags = bytes.advanced(by: start + 4 + count)
        tags.storeBytes(of: UInt32(0x2C00_0000 | UInt32(tag) << 16).bigEndian, as: UInt32.self)
        tags.storeBytes(of: value.bigEndian, toByteOffset: 4, as: UInt32.self)
        finishMessage(at: start, size: size)
    }

    /// Appends any message.
    func append(_ message: OSCMessage) {
        scratch.removeAll(keepingCapacity: true)
        _ = message.encode(appendingTo: &scratch)
        let size = scratch.count
        let start = startMessage(size: size)
        let bytes = state.pointee.bytes
        scratch.withUnsafeBytes { bytes.advanced(by: start + 4).copyMemory(from: $0.baseAddress!, byteCount: size) }
        finishMessage(at: start, size: size)
    }

    /// Makes room for a message of `size` bytes (after its 4-byte size), sending the bundle built
    /// so far first if the message would take it over the limit; returns where the size goes.
    private func startMessage(size: Int) -> Int {
        if state.pointee.messages > 0 && state.pointee.count + 4 + size > state.pointee.limit {
            // The new message does not fit: send the others, then start again with it alone.
            emitCurrent()
        }
        if state.pointee.messages == 0 {
            state.pointee.count = 0
            reserve(Self.headerSize + 4 + size)
            Self.bundleHeader.withUnsafeBytes {
                state.pointee.bytes.copyMemory(from: $0.baseAddress!, byteCount: Self.headerSize)
            }
            state.pointee.count = Self.headerSize
        } else {
            reserve(state.pointee.count + 4 + size)
        }
        return state.pointee.count
    }

    private func finishMessage(at start: Int, size: Int) {
        state.pointee.bytes.storeBytes(of: UInt32(size).bigEndian, toByteOffset: start, as: UInt32.self)
        state.pointee.count = start + 4 + size
        state.pointee.messages += 1
    }

    /// Grows the buffer to hold `total` bytes (a single message may be larger than any limit).
    private func reserve(_ total: Int) {
        guard total > state.pointee.capacity else { return }
        var capacity = state.pointee.capacity
        while capacity < total { capacity *= 2 }
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        bytes.copyMemory(from: state.pointee.bytes, byteCount: state.pointee.count)
        state.pointee.bytes.deallocate()
        state.pointee.bytes = bytes
        state.pointee.capacity = capacity
    }

    private func emitCurrent() {
        let messages = state.pointee.messages
        guard messages > 0 else { return }
        let packet = UnsafeRawBufferPointer(start: state.pointee.bytes, count: state.pointee.count)
        if messages == 1 {
            // A lone message goes out bare: simple peers need not read bundles.
            emit(UnsafeRawBufferPointer(rebasing: packet[(Self.headerSize + 4)...]))
        } else {
            emit(packet)
        }
        state.pointee.count = 0
        state.pointee.messages = 0
    }
}
