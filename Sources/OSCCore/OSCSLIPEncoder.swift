/// Frames OSC packets with SLIP (RFC 1055), as OSC 1.1 does over streams.
///
/// Each packet is sent as END, the packet with END and ESC bytes escaped, END. The leading END
/// lets a receiver drop any noise that came before it.
public enum OSCSLIPEncoder {
    /// END, `0xC0`: ends (and, in OSC 1.1, also starts) a packet.
    public static let end: UInt8 = 0xC0
    /// ESC, `0xDB`: the next byte stands for an END or an ESC in the packet.
    public static let escape: UInt8 = 0xDB
    /// ESC_END, `0xDC`: after ESC, an END byte of the packet.
    public static let escapedEnd: UInt8 = 0xDC
    /// ESC_ESC, `0xDD`: after ESC, an ESC byte of the packet.
    public static let escapedEscape: UInt8 = 0xDD

    /// Appends `packet`, SLIP-framed with an END at both ends, to `output`.
    /// - Parameters:
    ///   - packet: the bytes of one OSC packet.
    ///   - output: the buffer to append to.
    /// - Complexity: O(n) in the size of the packet.
    public static func encode(_ packet: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + packet.count + 2)
        output.append(end)
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
