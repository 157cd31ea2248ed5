/// Why a stream of framed OSC packets cannot be read further.
///
/// Either error leaves the stream out of step, so the connection that carried it should be closed.
public enum OSCFramingError: Error, Sendable, Hashable {
    /// A frame is longer than the decoder's maximum; `length` is its declared length (length
    /// prefix) or the length read so far (SLIP).
    case frameTooLarge(length: Int, limit: Int)
    /// A SLIP ESC byte (`0xDB`) is followed by `byte`, which is neither ESC_END nor ESC_ESC;
    /// `offset` counts from the start of the frame.
    case invalidEscape(byte: UInt8, offset: Int)
}
