import OSCCore

/// Why a TCP connection was closed.
public enum OSCTCPCloseReason: Sendable, Hashable, CustomStringConvertible {
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
    /// The connection spoke neither OSC framing and no handler for other protocols was given;
    /// ``OSCTCPConnection/firstBytes`` tells what it sent.
    case otherProtocolRefused
    /// The connection completed no frame within ``OSCTCPOptions/firstFrameTimeout``.
    case firstFrameTimeout
    /// The connection had been idle longest when a new one came with
    /// ``OSCTCPOptions/maximumConnections`` open, and gave way to it.
    case evicted
    /// The server's connections held more than ``OSCTCPOptions/maximumBufferedBytes`` of
    /// unfinished frames, and this one held the most.
    case inputBudgetExceeded

    /// Why, in a few English words, for a log line.
    public var description: String {
        switch self {
        case .peerClosed: "the peer closed it"
        case .closedLocally: "closed locally"
        case .framingError(.frameTooLarge(let length, let limit)):
            "a frame of \(length) bytes or more, over the limit of \(limit)"
        case .framingError(.invalidEscape(let byte, let offset)):
            "a SLIP escape followed by 0x\(String(byte, radix: 16, uppercase: true)) at offset \(offset)"
        case .systemError(let error): "\(error)"
        case .writeQueueOverflow: "it stopped reading"
        case .otherProtocolRefused: "it spoke neither OSC framing"
        case .firstFrameTimeout: "no complete frame in time after it opened"
        case .evicted: "idle longest when a new connection came at the connection limit"
        case .inputBudgetExceeded: "it held the most unfinished input when all connections held too much"
        }
    }
}
