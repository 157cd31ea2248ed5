/// The end of a WebSocket connection: the two ends follow different masking rules (RFC 6455
/// section 5.1).
public enum WebSocketRole: Sendable, Hashable {
    /// The end that accepted the connection: it reads masked frames and writes unmasked ones.
    case server
    /// The end that opened the connection: it reads unmasked frames and writes masked ones.
    case client
}
