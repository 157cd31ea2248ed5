/// Where replies and feedback to a UDP peer go (PROTOCOL.md section 1 and rule 9.1).
public enum FeedbackPort: Sendable, Hashable {
    /// The sender's IP with this port (TouchOSC listens on 9000).
    case fixed(UInt16)
    /// The sender's IP and the source port of its packet.
    case auto
}

extension FeedbackPort: CustomStringConvertible {
    /// `9000`, or `auto`: as `--feedback-port` takes it.
    public var description: String {
        switch self {
        case .fixed(let port): "\(port)"
        case .auto: "auto"
        }
    }
}
