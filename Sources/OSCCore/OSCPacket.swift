/// An OSC packet: the content of one datagram or one stream frame, a message or a bundle.
///
/// Not `indirect`: a bundle's elements already live in an array's heap buffer, and without the
/// extra box the encoder can borrow a message in place instead of retaining its parts.
public enum OSCPacket: Sendable, Hashable {
    /// A single message.
    case message(OSCMessage)
    /// A bundle of messages and bundles.
    case bundle(OSCBundle)
}
