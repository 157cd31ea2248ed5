/// Frames OSC packets with SLIP (RFC 1055), as OSC 1.1 does over streams.
///
/// Each packet is sent as END, the packet with END and ESC bytes escaped, END. The leading END
/// lets a receiver drop any noise that came before it. The first packet of a stream goes without
/// it (`leadingEnd: false`, PROTOCOL.md rule 9.13): liblo 0.31 drops a bundle that follows an END
/// at the start of a connection, and reads the double ENDs between later packets.
public enum OSCSLIPEncoder {
    /// END, `0xC0`: ends (and, in OSC 1.1, also starts) a packet.
    public static let end: UInt8 = 0xC0
    /// ESC, `0xDB`: the next byte stands for an END or an ESC in the packet.
    public static let escape: UInt8 = 0xDB
    /// ESC_END, `0xDC`: after ESC, an END byte of the packet.
    public static let escapedEnd: UInt8 = 0xDC
    /// ESC_ESC, `0xDD`: after ESC, an ESC byte of the packet.
    public static let escapedEscape: UInt8 = 0xDD

    /// Appends `packet`, SLIP-framed with an END at both ends (or only after it), to `output`.
    /// - Parameters:
    ///   - packet: the bytes of one OSC packet.
    ///   - output: the buffer to append to.
    ///   - leadingEnd: whether an END goes before the packet; `false` for the first packet of a stream.
    /// - Complexity: O(n) in the size of the packet.
    public static func encode(_ packet: UnsafeRawBufferPointer, into output: inout [UInt8], leadingEnd: Bool = true) {
        output.reserveCapacity(output.count + packet.count + 2)
        if leadingEnd { output.append(end) }
        // Copies runs of ordinary bytes whole; only END and ESC are handled one by one.
        var runStart = 0
        var index = 0
        let count = packet.count
        while index < count {
            let byte = packet[index]
            if byte == end || byte == escape {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: packet[runStart..<index]))
                output.append(escape)
                output.append(byte == end ? escapedEnd : escapedEscape)
                runStart = index + 1
            }
            index += 1
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: packet[runStart..<count]))
        output.append(end)
    }
}
