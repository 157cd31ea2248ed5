import Dispatch
import OSCTransport

extension ServerCore {
    /// The limits of the TCP listener (PROTOCOL.md section 8).
    static func tcpOptions(_ configuration: KnobLinkServer.Configuration) -> OSCTCPOptions {
        var options = OSCTCPOptions()
        options.maximumFrameLength = configuration.maxFrameLength
        options.maximumConnections = configuration.maxPeers
        // A peer that stops reading costs at most 1 MiB before it is dropped (64 of them: 64 MiB).
        options.maximumQueuedBytes = 1 << 20
        options.maximumBufferedBytes = configuration.maxBufferedInput
        let timeout = configuration.firstFrameTimeout
        options.firstFrameTimeout = timeout > 0 ? .nanoseconds(Int64(timeout * 1e9)) : nil
        return options
    }

    /// Counts a closed connection by its reason, and logs why one that never became a peer
    /// closed (a peer's departure is logged when it leaves the table).
    func countClosedConnection(_ connection: OSCTCPConnection, reason: OSCTCPCloseReason) {
        switch reason {
        case .framingError(.frameTooLarge): stats.oversizedFrame += 1
        case .framingError: stats.malformed += 1
        case .otherProtocolRefused: stats.otherProtocol += 1
        case .firstFrameTimeout: stats.tcpFirstFrameTimeouts += 1
        case .evicted: stats.tcpEvicted += 1
        case .inputBudgetExceeded: stats.tcpInputBudgetClosed += 1
        default: break
        }
        guard peers[.tcp(ObjectIdentifier(connection))] == nil, !stopped else { return }
        let level: LogEvent.Level =
            switch reason {
            case .peerClosed, .closedLocally: .debug
            case .firstFrameTimeout, .evicted: .info
            default: .warning
            }
        log(
            LogEvent(
                level: level, message: "\(connection) closed before its first frame: \(Self.why(reason, connection))"))
    }

    /// The reason, with what the peer sent when it spoke another protocol.
    static func why(_ reason: OSCTCPCloseReason, _ connection: OSCTCPConnection) -> String {
        guard case .otherProtocolRefused = reason else { return reason.description }
        let bytes = connection.firstBytes
        let hex = bytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        let text = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
        return "it spoke neither OSC framing (first bytes \(hex.joined(separator: " ")) \"\(text)\"; "
            + "OSC over TCP starts with 0x00, 0xC0, '/' or '#')"
    }

    /// The TCP listener's gauges and counters, for `/sys/stats`.
    func tcpStatisticsEntries() -> [(name: String, value: Int)] {
        [("tcpBufferedBytes", tcp?.bufferedBytes ?? 0)]
    }
}
