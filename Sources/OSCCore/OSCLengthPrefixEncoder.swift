/// Frames OSC packets with a big-endian int32 length prefix, as OSC 1.0 does over streams.
public enum OSCLengthPrefixEncoder {
    /// Appends the length of `packet` as a big-endian int32, then `packet`, to `output`.
    /// - Parameters:
    ///   - packet: the bytes of one OSC packet, shorter than 2 GiB.
    ///   - output: the buffer to append to.
    public static func encode(_ packet: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        precondition(packet.count <= Int(Int32.max), "an OSC 1.0 stream frame holds at most 2 GiB - 1 bytes")
        let length = UInt32(packet.count)
        output.reserveCapacity(output.count + packet.count + 4)
        output.append(UInt8(truncatingIfNeeded: length >> 24))
        output.append(UInt8(truncatingIfNeeded: length >> 16))
        output.append(UInt8(truncatingIfNeeded: length >> 8))
        output.append(UInt8(truncatingIfNeeded: length))
        output.append(contentsOf: packet)
    }
}
