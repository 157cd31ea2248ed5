/// A decoded message of at most ``capacity`` bytes, held in the ``OSCMessage`` itself.
///
/// The usual control message (`/knob/gain ,f 0.5` is 20 bytes) fits, so decoding it into an owned
/// message allocates nothing, as a short `String` keeps its bytes inline. Longer messages go to an
/// ``OSCPacketStorage``.
struct OSCInlineMessage: Sendable {
    /// The most bytes held inline.
    static let capacity = 24

    private let words: (UInt64, UInt64, UInt64)
    private let count: UInt8
    private let addressLength: UInt8
    private let tagsStart: UInt8
    private let tagsLength: UInt8
    private let argumentsStart: UInt8
    /// The number of arguments; an array counts as one.
    let argumentCount: UInt8

    /// A copy of a validated message of at most ``capacity`` bytes at `base`, laid out as `layout`
    /// (offsets from `base`).
    @inline(__always)
    init(copying base: UnsafeRawPointer, _ layout: OSCPacketValidator.MessageLayout) {
        let start = layout.start
        let count = layout.end - start
        assert(count <= Self.capacity, "an inline message holds at most \(Self.capacity) bytes")
        self.count = UInt8(truncatingIfNeeded: count)
        addressLength = UInt8(truncatingIfNeeded: layout.addressLength)
        tagsStart = UInt8(truncatingIfNeeded: layout.tagsStart - start)
        tagsLength = UInt8(truncatingIfNeeded: layout.tagsLength)
        argumentsStart = UInt8(truncatingIfNeeded: layout.argumentsStart - start)
        argumentCount = UInt8(truncatingIfNeeded: layout.argumentCount)
        // Word by word rather than `copyMemory`: reading the words back right after `memcpy` had
        // written them in other widths stalled on store forwarding, a third of decoding's time.
        let source = base + start
        words = (Self.word(source, 0, count), Self.word(source, 8, count), Self.word(source, 16, count))
    }

    /// The 8 bytes at `offset` of the `count` at `source` (a multiple of 4), zero past `count`.
    @inline(__always)
    private static func word(_ source: UnsafeRawPointer, _ offset: Int, _ count: Int) -> UInt64 {
        if count >= offset + 8 {
            return source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        if count >= offset + 4 {
            // The 4 bytes followed by 4 zero bytes, in memory order.
            let half = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            return UInt64(half).littleEndian
        }
        return 0
    }

    /// Calls `body` with a view of the message; the view is valid only during the call.
    @inline(__always)
    func view(_ body: (OSCMessageView) -> Void) {
        withUnsafeBytes(of: words) { raw in
            body(
                OSCMessageView(
                    base: raw.baseAddress.unsafelyUnwrapped, count: Int(count), addressLength: Int(addressLength),
                    tagsStart: Int(tagsStart), tagsLength: Int(tagsLength), argumentsStart: Int(argumentsStart),
                    argumentCount: Int(argumentCount)))
        }
    }
}
