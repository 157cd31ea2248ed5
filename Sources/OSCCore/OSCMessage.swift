/// An OSC message that owns its address and arguments.
///
/// For the hot path, decode into an ``OSCMessageView`` instead, which reads the bytes in place;
/// ``OSCMessageView/makeMessage()`` turns a view into this owned form.
public struct OSCMessage: Sendable, Hashable {
    /// The address (or address pattern), for example `/knob/gain`.
    ///
    /// Encoding writes its UTF-8 bytes up to the first NUL, as a C peer would.
    public var address: String
    /// The arguments, in order.
    public var arguments: [OSCArgument]

    /// Creates a message.
    /// - Parameters:
    ///   - address: the OSC address, for example `/knob/gain`.
    ///   - arguments: the arguments, in order.
    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }
}
