import Dispatch
import OSCCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes received packets and delivers their messages, each at the time of its bundle.
///
/// Messages of a bare message packet, of bundles tagged "immediately", and of bundles whose time
/// has passed are delivered at once, as views over the received bytes (no copy). A bundle with a
/// future time tag is copied once and delivered at its time by a timer on the loop; the number
/// of packets waiting and how far ahead they may be are bounded, so a peer cannot make the
/// receiver hold memory without limit. Each host (the peer's IP address, whatever its port or
/// connection) may hold only its share of the waiting packets, so that one peer cannot fill the
/// queue for an hour and have every other peer's bundles refused.
///
/// ```swift
/// let receiver = OSCReceiver(loop: server.loop) { message, timeTag, peer in
///     print(message.address, peer)
/// }
/// receiver.attach(to: server)
/// ```
public final class OSCReceiver: @unchecked Sendable {
    /// The handler of each delivered message: the message (valid only during the call), the time
    /// tag of its innermost bundle (`OSCTimeTag.immediately` for a bare message), and its peer.
    public typealias Handler = @Sendable (OSCMessageView, OSCTimeTag, OSCPeer) -> Void

    /// The loop that runs the handlers and the timers.
    public let loop: OSCEventLoop
    /// The decoding options.
    public let options: OSCDecodingOptions
    /// The most packets that may wait for their time at once.
    public let maximumScheduledPackets: Int
    /// The most packets from one host (one IP address) that may wait at once.
    public let maximumScheduledPacketsPerHost: Int
    /// The furthest ahead a bundle may be scheduled, in seconds (at most one NTP era, 2³² s).
    public let maximumDelay: Double

    private let handler: Handler
    private let errorHandler: (@Sendable (OSCReceiveError, OSCPeer) -> Void)?
    // Owned by the loop.
    private var scheduled = 0
    /// The packets waiting, by host address; a host with none has no entry.
    private var scheduledByHost: [[UInt8]: Int] = [:]

    /// Creates a receiver.
    /// - Parameters:
    ///   - loop: the loop of the servers whose packets it receives.
    ///   - options: what the decoder accepts.
    ///   - maximumScheduledPackets: how many future bundles may wait at once (1024 by default).
    ///   - maximumScheduledPacketsPerHost: how many of them may come from one host; `nil` (the
    ///     default) gives each an eighth of `maximumScheduledPackets`, at least 1.
    ///   - maximumDelay: how far ahead, in seconds, a bundle may be scheduled (one hour by
    ///     default); a value that is not a number counts as 0, one beyond 2³² s as 2³² s.
    ///   - onError: told of each packet that is not delivered, and why.
    ///   - handler: gets each message; runs on the loop and must not block.
    public init(
        loop: OSCEventLoop, options: OSCDecodingOptions = .default, maximumScheduledPackets: Int = 1024,
        maximumScheduledPacketsPerHost: Int? = nil, maximumDelay: Double = 3600,
        onError: (@Sendable (OSCReceiveError, OSCPeer) -> Void)? = nil, handler: @escaping Handler
    ) {
        self.loop = loop
        self.options = options
        self.maximumScheduledPackets = max(maximumScheduledPackets, 0)
        self.maximumScheduledPacketsPerHost = max(maximumScheduledPacketsPerHost ?? maximumScheduledPackets / 8, 1)
        self.maximumDelay = maximumDelay.isNaN ? 0 : min(max(maximumDelay, 0), Self.longestDelay)
        self.errorHandler = onError
        self.handler = handler
    }

    /// The current time as an OSC time tag (from the system's real-time clock).
    public static func now() -> OSCTimeTag {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return OSCTimeTag(secondsSince1970: Int64(time.tv_sec), nanoseconds: UInt32(time.tv_nsec))
    }

    /// Receives every datagram of a UDP server (on the server's loop, which should be this receiver's).
    /// - Parameter server: the server; this starts it.
    public func attach(to server: OSCUDPServer) {
        server.start { [self] bytes, sender in receive(bytes, from: .udp(sender)) }
    }

    /// Receives every frame of a TCP server.
    /// - Parameters:
    ///   - server: the server; this starts it.
    ///   - onOtherProtocol: takes over connections that speak neither OSC framing.
    ///   - onClose: told when a connection closes.
    public func attach(
        to server: OSCTCPServer, onOtherProtocol: (@Sendable (OSCTCPConnection, UnsafeRawBufferPointer) -> Void)? = nil,
        onClose: (@Sendable (OSCTCPConnection, OSCTCPCloseReason) -> Void)? = nil
    ) {
        server.start(
            onFrame: { [self] bytes, connection in receive(bytes, from: .tcp(connection)) },
            onOtherProtocol: onOtherProtocol, onClose: onClose)
    }

    /// Decodes one packet and delivers its messages; call on the loop.
    /// - Parameters:
    ///   - bytes: a datagram or a stream frame.
    ///   - peer: where it came from.
    public func receive(_ bytes: UnsafeRawBufferPointer, from peer: OSCPeer) {
        loop.assertInLoop()
        var now: OSCTimeTag?
        var later: [OSCTimeTag] = []
        let handler = handler
        do {
            try OSCPacket.visitMessages(in: bytes, options: options) { message, timeTag in
                if timeTag.isImmediately {
                    return handler(message, timeTag, peer)
                }
                let current = now ?? Self.now()
                now = current
                if timeTag <= current {
                    handler(message, timeTag, peer)
                } else if !later.contains(timeTag) {
                    later.append(timeTag)
                }
            }
        } catch {
            errorHandler?(.malformed(error), peer)
            return
        }
        guard !later.isEmpty, let now else { return }
        let copy = Array(bytes)
        for timeTag in later {
            schedule(copy, timeTag: timeTag, now: now, peer: peer)
        }
    }

    /// One NTP era: no two time tags are further apart.
    static let longestDelay: Double = 4_294_967_296

    private func schedule(_ packet: [UInt8], timeTag: OSCTimeTag, now: OSCTimeTag, peer: OSCPeer) {
        let host = peer.address.addressBytes
        let fromHost = scheduledByHost[host, default: 0]
        guard scheduled < maximumScheduledPackets, fromHost < maximumScheduledPacketsPerHost,
            let deadline = Self.deadline(after: timeTag.secondsSince1970 - now.secondsSince1970, limit: maximumDelay)
        else {
            errorHandler?(.schedulingRefused(timeTag), peer)
            return
        }
        scheduled += 1
        scheduledByHost[host] = fromHost + 1
        loop.schedule(at: deadline) { [self] in
            scheduled -= 1
            if let count = scheduledByHost[host], count > 1 {
                scheduledByHost[host] = count - 1
            } else {
                scheduledByHost[host] = nil
            }
            packet.withUnsafeBytes { bytes in
                _ = try? OSCPacket.visitMessages(in: bytes, options: options) { message, tag in
                    if tag == timeTag { handler(message, tag, peer) }
                }
            }
        }
    }

    /// The monotonic deadline `delay` seconds from now, or `nil` when the delay is not a number,
    /// is beyond `limit`, or would overflow the clock: every conversion from the peer's number is
    /// checked, none traps.
    static func deadline(after delay: Double, limit: Double) -> DispatchTime? {
        guard delay.isFinite, delay <= limit else { return nil }
        let nanoseconds = (max(delay, 0) * 1e9).rounded(.up)
        guard let offset = UInt64(exactly: nanoseconds) else { return nil }
        let (deadline, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(offset)
        // DispatchTime reads the largest values as "forever".
        guard !overflow, deadline < UInt64(Int64.max) else { return nil }
        return DispatchTime(uptimeNanoseconds: deadline)
    }
}
