/// Where replies and feedback to a UDP peer go (PROTOCOL.md section 1 and rule 9.1).
public enum FeedbackPort: Sendable, Hashable {
    /// The sender's IP with this port (TouchOSC listens on 9000).
    case fixed(UInt16)
    /// The sender's IP and the source port of its packet.
    case auto
}
