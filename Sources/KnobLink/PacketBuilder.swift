import OSCCore
import UncheckedState

/// Packs outgoing messages into bundles no larger than a datagram limit and hands each finished
/// packet to `emit`; one message alone goes out bare.
///
/// The bytes live in one buffer reused from packet to packet, so building feedback allocates
/// nothing after the first packets. Its state is in a box rather than in stored properties:
/// every value of every feedback packet passes through here, and a class's stored `Array` paid a
/// dynamic exclusivity check and a uniqueness check on each append. Owned by the server's event
/// loop.
final class PacketBuilder {
    private static let bundleHeader: [UInt8] = Array("#bundle".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
    private static let headerSize = 16

    private struct State: ~Copyable {
        /// The packet being built; replaced by a larger buffer when a message does not fit.
        var bytes: UncheckedBuffer<UInt8>
        /// Bytes used, the bundle header included.
        var count = 0
        /// Messages in the bundle being built.
        var messages = 0
        var limit = 1472
    }

    private let state: UncheckedBox<State>
    private let emit: (UnsafeRawBufferPointer) -> Void
    /// For messages of any shape, encoded by OSCCore before they are copied in.
    private var scratch: [UInt8] = []

    /// Creates a builder that hands each finished packet to `emit`.
    init(emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.emit = emit
        state = UncheckedBox(State(bytes: UncheckedBuffer(count: 1 << 16, repeating: 0)))
        scratch.reserveCapacity(1 << 12)
    }

    /// Starts a run of messages for one destination; `limit` is its datagram size.
    func begin(limit: Int) {
        state.value.limit = limit
        state.value.count = 0
        state.value.messages = 0
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
        state.value.bytes.withUnsafeMutableBytes { bytes in
            let message = bytes.baseAddress.unsafelyUnwrapped + start + 4
            message.copyMemory(from: address, byteCount: count)
            let tags = message + count
            tags.storeBytes(of: UInt32(0x2C00_0000 | UInt32(tag) << 16).bigEndian, as: UInt32.self)
            tags.storeBytes(of: value.bigEndian, toByteOffset: 4, as: UInt32.self)
        }
        finishMessage(at: start, size: size)
    }

    /// Appends any message.
    func append(_ message: OSCMessage) {
        scratch.removeAll(keepingCapacity: true)
        _ = message.encode(appendingTo: &scratch)
        let size = scratch.count
        let start = startMessage(size: size)
        state.value.bytes.withUnsafeMutableBytes { bytes in
            scratch.withUnsafeBytes {
                bytes.baseAddress!.advanced(by: start + 4).copyMemory(from: $0.baseAddress!, byteCount: size)
            }
        }
        finishMessage(at: start, size: size)
    }

    /// Makes room for a message of `size` bytes (after its 4-byte size), sending the bundle built
    /// so far first if the message would take it over the limit; returns where the size goes.
    private func startMessage(size: Int) -> Int {
        if state.value.messages > 0 && state.value.count + 4 + size > state.value.limit {
            // The new message does not fit: send the others, then start again with it alone.
            emitCurrent()
        }
        if state.value.messages == 0 {
            state.value.count = 0
            reserve(Self.headerSize + 4 + size)
            state.value.bytes.withUnsafeMutableBytes { bytes in
                Self.bundleHeader.withUnsafeBytes {
                    bytes.baseAddress.unsafelyUnwrapped.copyMemory(from: $0.baseAddress!, byteCount: Self.headerSize)
                }
            }
            state.value.count = Self.headerSize
        } else {
            reserve(state.value.count + 4 + size)
        }
        return state.value.count
    }

    private func finishMessage(at start: Int, size: Int) {
        state.value.bytes.withUnsafeMutableBytes { bytes in
            bytes.baseAddress.unsafelyUnwrapped.storeBytes(
                of: UInt32(size).bigEndian, toByteOffset: start, as: UInt32.self)
        }
        state.value.count = start + 4 + size
        state.value.messages += 1
    }

    /// Grows the buffer to hold `total` bytes (a single message may be larger than any limit).
    private func reserve(_ total: Int) {
        guard total > state.value.bytes.count else { return }
        grow(to: total)
    }

    private func grow(to total: Int) {
        var capacity = state.value.bytes.count
        while capacity < total { capacity *= 2 }
        let bytes = UncheckedBuffer<UInt8>(count: capacity, repeating: 0)
        let count = state.value.count
        state.value.bytes.withUnsafeMutableBytes { old in
            bytes.withUnsafeMutableBytes { new in
                new.baseAddress.unsafelyUnwrapped.copyMemory(from: old.baseAddress.unsafelyUnwrapped, byteCount: count)
            }
        }
        state.value.bytes = bytes
    }

    private func emitCurrent() {
        let messages = state.value.messages
        guard messages > 0 else { return }
        let count = state.value.count
        // The bytes are read, not changed, while `emit` runs.
        state.value.bytes.withUnsafeMutableBytes { bytes in
            let packet = UnsafeRawBufferPointer(rebasing: bytes[..<count])
            if messages == 1 {
                // A lone message goes out bare: simple peers need not read bundles.
                emit(UnsafeRawBufferPointer(rebasing: packet[(Self.headerSize + 4)...]))
            } else {
                emit(packet)
            }
        }
        state.value.count = 0
        state.value.messages = 0
    }
}
