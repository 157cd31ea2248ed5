/// The two ways of carrying OSC packets over a byte stream such as a TCP connection.
///
/// OSC 1.0 puts a big-endian int32 length before each packet; OSC 1.1 wraps each packet in SLIP
/// (RFC 1055) with an END byte at both ends (single-END senders such as liblo put none before). Real devices use both, so a receiver reads the first
/// byte of a connection to tell them apart: see ``detect(firstByte:)``.
public enum OSCFraming: Sendable, Hashable, CustomStringConvertible {
    /// OSC 1.1: SLIP, `0xC0` before and after each packet.
    case slip
    /// OSC 1.0: a big-endian int32 byte count before each packet.
    case lengthPrefix

    /// Tells the framing of a stream from its first byte (PROTOCOL.md section 1).
    ///
    /// A SLIP sender that follows OSC 1.1 starts with END (`0xC0`); a single-END SLIP sender such
    /// as liblo puts no END before its first packet, which then starts with `/` (a message) or
    /// `#` (a bundle); a length prefix of any packet shorter than 16 MiB starts with `0x00`.
    /// Anything else is another protocol, left to the caller (an HTTP request starts with a
    /// method such as `G` of `GET `).
    /// - Parameter firstByte: the first byte received on the connection.
    /// - Returns: the framing, or `nil` if the stream speaks another protocol.
    public static func detect(firstByte: UInt8) -> OSCFraming? {
        switch firstByte {
        case OSCSLIPEncoder.end, UInt8(ascii: "/"), UInt8(ascii: "#"): .slip
        case 0x00: .lengthPrefix
        default: nil
        }
    }

    /// The default maximum frame length: 1 MiB, the limit of PROTOCOL.md section 8.
    public static let defaultMaximumFrameLength = 1 << 20

    /// `"SLIP"` or `"length-prefix"`.
    public var description: String {
        switch self {
        case .slip: "SLIP"
        case .lengthPrefix: "length-prefix"
        }
    }

    /// Appends `packet`, framed this way, to `output`.
    /// - Parameters:
    ///   - packet: the bytes of one OSC packet.
    ///   - output: the buffer to append to.
    ///   - first: whether it is the first packet of the stream, which SLIP sends without a
    ///     leading END (see ``OSCSLIPEncoder``).
    public func encode(_ packet: UnsafeRawBufferPointer, into output: inout [UInt8], first: Bool = false) {
        switch self {
        case .slip: OSCSLIPEncoder.encode(packet, into: &output, leadingEnd: !first)
        case .lengthPrefix: OSCLengthPrefixEncoder.encode(packet, into: &output)
        }
    }

    /// Returns `packet` framed this way.
    /// - Parameter packet: the bytes of one OSC packet.
    /// - Returns: the framed bytes.
    public func encode(_ packet: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(packet.count + 8)
        packet.withUnsafeBytes { encode($0, into: &output) }
        return output
    }
}
