/// A decoded message of at most ``capacity`` bytes, held in the ``OSCMessage`` itself.
///
/// The usual control message (`/knob/gain ,f 0.5` is 20 bytes) fits, so decoding it into an owned
/// message allocates nothing, as a short `String` keeps its bytes inline. Longer messages go to an
/// ``OSCPacketStorage``.
struct OSCInlineMessage: Sendable {
    /// The most bytes held inline.
    static let capacity = 24

    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private let count: UInt8
    private let addressLength: UInt8
    private let tagsStart: UInt8
    private let tagsLength: UInt8
    private let argumentsStart: UInt8
    private let argumentCount: UInt8

    /// A copy of a validated message of at most ``capacity`` bytes at `base`, laid out as `layout`
    /// (offsets from `base`).
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
        withUnsafeMutableBytes(of: &words) {
            $0.baseAddress.unsafelyUnwrapped.copyMemory(from: base + start, byteCount: count)
        }
    }

    /// The number of arguments.
    var arguments: Int { Int(argumentCount) }

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
