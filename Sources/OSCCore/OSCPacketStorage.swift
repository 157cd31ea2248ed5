/// The bytes of a decoded packet, copied once, which the messages decoded from it share.
///
/// Decoding into owned values copies the packet here in one allocation, together with where each
/// of its messages sits (an ``OSCStoredMessageLayout`` a message). Each ``OSCMessage`` then holds
/// the storage and a pointer to its own layout, as a swift-nio `ByteBuffer` slice holds its
/// storage and indices: two words, so that a decoded message is as small as one built from
/// values. A message kept from a bundle keeps the bundle's bytes alive.
///
/// The storage never changes once its messages are made, which is why a message that holds it can
/// be `Sendable`: every thread only reads it.
struct OSCPacketStorage {
    /// The layouts, five words each, then the packet's bytes. The header is unused.
    ///
    /// A class of its own, not `ManagedBuffer<Int, UInt64>` itself: creating a generic class's
    /// instance looks its metadata up in the runtime's cache every time, which took longer than
    /// the allocation.
    final class Buffer: ManagedBuffer<Int, UInt64> {}

    private let buffer: Buffer
    private let layouts: UnsafeMutablePointer<OSCStoredMessageLayout>
    /// The packet's first byte.
    let base: UnsafeRawPointer
    /// The number of layouts there is room for.
    let messageCount: Int
    /// The number of the packet's bytes.
    let count: Int

    private static let layoutWords = MemoryLayout<OSCStoredMessageLayout>.stride >> 3

    /// A copy of `bytes`, with room for the layouts of `messageCount` messages.
    init(copying bytes: UnsafeRawBufferPointer, messageCount: Int) {
        let layoutWords = Self.layoutWords * messageCount
        let words = layoutWords + (bytes.count + 7) >> 3
        buffer = unsafeDowncast(Buffer.create(minimumCapacity: words) { _ in 0 }, to: Buffer.self)
        let elements = buffer.withUnsafeMutablePointerToElements { $0 }
        layouts = UnsafeMutableRawPointer(elements).bindMemory(to: OSCStoredMessageLayout.self, capacity: messageCount)
        let bytesStart = UnsafeMutableRawPointer(elements + layoutWords)
        if let source = bytes.baseAddress, !bytes.isEmpty {
            bytesStart.copyMemory(from: source, byteCount: bytes.count)
        }
        base = UnsafeRawPointer(bytesStart)
        self.messageCount = messageCount
        count = bytes.count
    }

    /// The message whose layout in the packet (offsets from its first byte) is `layout`, kept in
    /// slot `index`.
    func message(_ index: Int, _ layout: OSCPacketValidator.MessageLayout) -> OSCMessage {
        setLayout(index, layout)
        return OSCMessage(buffer: buffer, layout: UnsafePointer(layouts + index))
    }

    /// The bundle at `start ..< end` in the packet, whose messages' layouts are all set, in order,
    /// from slot 0.
    func bundle(start: Int, end: Int) -> OSCBundle {
        OSCBundle(
            buffer: buffer,
            stored: OSCStoredBundle(
                base: base, layouts: UnsafePointer(layouts), start: Int32(truncatingIfNeeded: start),
                end: Int32(truncatingIfNeeded: end)))
    }

    /// Sets the layouts of every message in the validated packet, in order: the first from
    /// validation's `records`, the rest (past their capacity) found again.
    func setLayouts(from records: UnsafeMutableBufferPointer<OSCPacketValidator.Record>) {
        let recorded = min(messageCount, records.count)
        for index in 0..<recorded {
            setLayout(index, records[index].layout)
        }
        guard recorded < messageCount else {
            return
        }
        var ordinal = 0
        setLayouts(start: 0, end: count, after: recorded, ordinal: &ordinal)
    }

    /// The slow half of ``setLayouts(from:)``: walks the packet, finding the layout of every
    /// message from ordinal `first` on.
    private func setLayouts(start: Int, end: Int, after first: Int, ordinal: inout Int) {
        if base.load(fromByteOffset: start, as: UInt8.self) != UInt8(ascii: "#") {
            if ordinal >= first {
                setLayout(ordinal, OSCPacketValidator.layoutOfValidMessage(base, start: start, end: end))
            }
            ordinal += 1
            return
        }
        var offset = start + 16
        while offset < end {
            let size = Int(OSCWire.loadInt32(base, offset))
            setLayouts(start: offset + 4, end: offset + 4 + size, after: first, ordinal: &ordinal)
            offset += 4 + size
        }
    }

    /// Keeps `layout` (offsets from the packet's first byte) in slot `index`.
    private func setLayout(_ index: Int, _ layout: OSCPacketValidator.MessageLayout) {
        // Not `buffer.header`: reading a class's stored property checks exclusive access at run time.
        assert(index < messageCount, "more messages than the storage was made for")
        let start = layout.start
        (layouts + index).initialize(
            to: OSCStoredMessageLayout(
                base: base, start: Int32(truncatingIfNeeded: start),
                count: Int32(truncatingIfNeeded: layout.end - start),
                addressLength: Int32(truncatingIfNeeded: layout.addressLength),
                tagsStart: Int32(truncatingIfNeeded: layout.tagsStart - start),
                tagsLength: Int32(truncatingIfNeeded: layout.tagsLength),
                argumentsStart: Int32(truncatingIfNeeded: layout.argumentsStart - start),
                argumentCount: Int32(truncatingIfNeeded: layout.argumentCount)))
    }
}

/// Where one message sits in an ``OSCPacketStorage``: the packet's first byte, and the fields of
/// an ``OSCMessageView`` as 32-bit offsets (a packet longer than ``largestPacket`` is kept as values
/// instead).
struct OSCStoredMessageLayout {
    /// The packet's first byte in the storage.
    var base: UnsafeRawPointer
    /// The message's first byte, from `base`.
    var start: Int32
    /// The message's length in bytes, trailing bytes included.
    var count: Int32
    var addressLength: Int32
    /// The first type tag after the `,`, from the message's start.
    var tagsStart: Int32
    var tagsLength: Int32
    /// The first argument's data, from the message's start.
    var argumentsStart: Int32
    var argumentCount: Int32

    /// The largest packet whose offsets fit.
    static let largestPacket = Int(Int32.max)
}
