import OSCCore

/// Why a TCP connection was closed.
public enum OSCTCPCloseReason: Sendable, Hashable {
    /// The peer closed its end.
    case peerClosed
    /// ``OSCTCPConnection/close()`` was called, or the server was closed.
    case closedLocally
    /// The peer sent a frame over the limit, or a malformed SLIP escape.
    case framingError(OSCFramingError)
    /// A read or write failed (connection reset, broken pipe, …).
    case systemError(OSCSystemError)
    /// The peer stopped reading and its write queue passed ``OSCTCPOptions/maximumQueuedBytes``.
    case writeQueueOverflow
    /// The connection spoke neither OSC framing and no handler for other protocols was given.
    case otherProtocolRefused
}
