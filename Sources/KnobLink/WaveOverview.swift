import OSCCore

/// The overview frames of PROTOCOL.md section 5: bar heights cut into messages that each fit in
/// one datagram of the destination.
///
/// `/wave/bars i seq i offset i total b data` carries big-endian float32 heights; the float
/// fallback `/wave/bars/f i seq i offset i total f…` carries at most 64 values a message. Every
/// message of one frame has the same `seq`; `offset` is the index of its first bar and `total`
/// the number of bars in the frame, so that a visualiser knows when it has them all.
enum WaveOverview {
    static let blobAddress = "/wave/bars"
    static let floatAddress = "/wave/bars/f"
    /// The most values in one `/wave/bars/f` message.
    static let maximumFloatsPerMessage = 64
    /// The bytes of a `/wave/bars` message besides its data: the padded address (12), the padded
    /// type tags `,iiib` (8), three int32s (12) and the blob's size (4).
    static let blobMessageOverhead = 36

    /// How many bars one `/wave/bars` message may carry within `datagramLimit` bytes.
    static func barsPerBlobMessage(datagramLimit: Int) -> Int {
        max(1, (datagramLimit - blobMessageOverhead) / 4)
    }

    /// The messages of one frame of `bars`, in order.
    /// - Parameters:
    ///   - floats: the fallback form (subscription flag 1) rather than blobs.
    ///   - datagramLimit: the largest datagram the destination may get (rule 9.14).
    /// - Complexity: O(bars.count).
    static func messages(seq: Int32, bars: [Float], floats: Bool, datagramLimit: Int) -> [OSCMessage] {
        let total = Int32(clamping: bars.count)
        let step = floats ? maximumFloatsPerMessage : barsPerBlobMessage(datagramLimit: datagramLimit)
        guard !bars.isEmpty else {
            // An empty source still tells the visualiser that its overview is empty.
            return [OSCMessage(floats ? floatAddress : blobAddress, header(seq, 0, 0) + (floats ? [] : [.blob([])]))]
        }
        var messages: [OSCMessage] = []
        messages.reserveCapacity((bars.count + step - 1) / step)
        var offset = 0
        while offset < bars.count {
            let end = min(offset + step, bars.count)
            let slice = bars[offset..<end]
            var arguments = header(seq, Int32(offset), total)
            if floats {
                arguments.reserveCapacity(3 + slice.count)
                for value in slice { arguments.append(.float32(clamped(value))) }
                messages.append(OSCMessage(floatAddress, arguments))
            } else {
                messages.append(OSCMessage(blobAddress, arguments + [.blob(bigEndianBytes(slice))]))
            }
            offset = end
        }
        return messages
    }

    /// The heights as big-endian float32s.
    static func bigEndianBytes(_ values: ArraySlice<Float>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values {
            let bits = clamped(value).bitPattern
            bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
            bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
            bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
            bytes.append(UInt8(truncatingIfNeeded: bits))
        }
        return bytes
    }

    /// Heights are 0…1 on the wire whatever the source computed; NaN becomes 0.
    private static func clamped(_ value: Float) -> Float {
        value.isNaN ? 0 : min(1, max(0, value))
    }

    private static func header(_ seq: Int32, _ offset: Int32, _ total: Int32) -> [OSCArgument] {
        [.int32(seq), .int32(offset), .int32(total)]
    }
}
