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

extension OSCPacket {
    /// Calls `body` for every message in the packet, in order, with the time tag of the innermost
    /// bundle that holds it (``OSCTimeTag/immediately`` for a bare message). Nothing is allocated
    /// for a decoded packet; see ``OSCBundle/forEachMessage(_:)``.
    ///
    /// The views are valid only during the call to `body`.
    public func forEachMessage(_ body: (OSCMessageView, OSCTimeTag) -> Void) {
        switch self {
        case .message(let message): message.view { body($0, .immediately) }
        case .bundle(let bundle): bundle.forEachMessage(body)
        }
    }
}
