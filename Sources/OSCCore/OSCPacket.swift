/// An OSC packet: the content of one datagram or one stream frame, a message or a bundle.
public indirect enum OSCPacket: Sendable, Hashable {
    /// A single message.
    case message(OSCMessage)
    /// A bundle of messages and bundles.
    case bundle(OSCBundle)
}
