import Locking
import Synchronization

/// The ICMP reports of a UDP socket (`IP_RECVERR`): read from its error queue by whichever side
/// meets them (the reader, or a send that a pending report failed), held a moment, and handed
/// to the owner on the loop.
///
/// At most ``pendingLimit`` reports wait for the loop; more are dropped and counted, so that a
/// burst of ICMP errors costs bounded memory however slow the loop is.
final class UDPFailureReports: @unchecked Sendable {
    /// Reports read and not yet handed over.
    private struct Pending {
        var list: [OSCDeliveryFailure] = []
        var scheduled = false
    }

    /// The most reports waiting for the loop.
    static let pendingLimit = 256

    private let loop: OSCEventLoop
    private let counters: UDPCounters
    private let pending = Locked(Pending())
    /// Set once the owner asked for reports and the socket has `IP_RECVERR` on.
    private let enabled = Atomic<Bool>(false)
    // Owned by the loop.
    private var handler: (@Sendable (OSCDeliveryFailure) -> Void)?

    init(loop: OSCEventLoop, counters: UDPCounters) {
        self.loop = loop
        self.counters = counters
    }

    /// Whether reports are read: the owner asked for them and the socket queues them.
    var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// Turns reports on for `fd`, to be handed to `handler`; on the loop.
    func enable(_ fd: Int32, family: OSCSocketAddress.Family, handler: @escaping @Sendable (OSCDeliveryFailure) -> Void)
    {
        loop.assertInLoop()
        self.handler = handler
        // Without IP_RECVERR, Linux drops ICMP errors for a socket that is not connected.
        if (try? UDPErrorQueue.enable(fd, family: family)) != nil {
            enabled.store(true, ordering: .releasing)
        }
    }

    /// Hands nothing more over; on the loop.
    func stop() {
        loop.assertInLoop()
        handler = nil
    }

    /// Reads the error queue of `fd` and schedules the reports' delivery on the loop.
    func collect(_ fd: Int32) {
        var found: [OSCDeliveryFailure] = []
        UDPErrorQueue.read(fd) { found.append($0) }
        guard !found.isEmpty else { return }
        counters.deliveryFailures.add(found.count, ordering: .relaxed)
        let schedule = withPending { pending -> Bool in
            let room = max(Self.pendingLimit - pending.list.count, 0)
            if found.count > room {
                counters.deliveryFailuresDropped.add(found.count - room, ordering: .relaxed)
            }
            pending.list.append(contentsOf: found.prefix(room))
            if pending.scheduled { return false }
            pending.scheduled = true
            return true
        }
        if schedule {
            loop.execute { [self] in deliver() }
        }
    }

    /// Runs a send; if it failed only because an ICMP report was pending (which the kernel returns
    /// from the next call on the socket, whatever its destination, without sending), reads the
    /// report and sends again.
    @inline(__always)
    func retryingReported<R>(_ fd: Int32, _ body: () throws(OSCSystemError) -> R?) throws(OSCSystemError) -> R? {
        do {
            return try body()
        } catch  where UDPErrorQueue.isReported(error.errno) && isEnabled {
            collect(fd)
            return try body()
        }
    }

    private func withPending<R>(_ body: (inout sending Pending) -> sending R) -> sending R {
        pending.withLock(body)
    }

    private func deliver() {
        let list = withPending { pending -> [OSCDeliveryFailure] in
            pending.scheduled = false
            defer { pending.list.removeAll() }
            return pending.list
        }
        guard let handler else { return }
        for failure in list { handler(failure) }
    }
}

/// The receiving side's counters and the sending side's, a cache line apart: the reader thread
/// and a sending thread each update theirs for every datagram, and on one line each update
/// took the line away from the other CPU.
final class UDPCounters: Sendable {
    let received = Atomic<Int>(0)
    let truncated = Atomic<Int>(0)
    let receiveErrors = Atomic<Int>(0)
    private let padding = (0, 0, 0, 0, 0, 0, 0, 0)
    let sent = Atomic<Int>(0)
    let sendsWouldBlock = Atomic<Int>(0)
    let deliveryFailures = Atomic<Int>(0)
    let deliveryFailuresDropped = Atomic<Int>(0)

    var statistics: OSCUDPStatistics {
        OSCUDPStatistics(
            received: received.load(ordering: .relaxed), truncated: truncated.load(ordering: .relaxed),
            receiveErrors: receiveErrors.load(ordering: .relaxed), sent: sent.load(ordering: .relaxed),
            sendsWouldBlock: sendsWouldBlock.load(ordering: .relaxed),
            deliveryFailures: deliveryFailures.load(ordering: .relaxed),
            deliveryFailuresDropped: deliveryFailuresDropped.load(ordering: .relaxed))
    }
}
