import CBenchPeer

/// One throughput run: datagrams counted at the receiver over the time from the first send to the
/// last receive.
struct ThroughputResult {
    var received: Int
    var sent: Int
    var elapsedNanoseconds: UInt64
    /// From the first send to the return of the last one: shows whether the sender or the receiver
    /// set the pace.
    var sendNanoseconds: UInt64
    /// Context switches of the process per datagram sent.
    var switchesPerDatagram: Double = 0

    init(received: Int, sent: Int, elapsedNanoseconds: UInt64, sendNanoseconds: UInt64) {
        self.received = received
        self.sent = sent
        self.elapsedNanoseconds = elapsedNanoseconds
        self.sendNanoseconds = sendNanoseconds
    }

    init(_ result: kb_udp_result) {
        self.init(
            received: result.received, sent: result.sent, elapsedNanoseconds: result.elapsed_ns,
            sendNanoseconds: result.send_ns)
    }

    /// Datagrams received per second.
    var rate: Double { Double(received) * 1e9 / Double(max(elapsedNanoseconds, 1)) }
    /// Datagrams handed to the kernel per second by the sender.
    var sendRate: Double { Double(sent) * 1e9 / Double(max(sendNanoseconds, 1)) }
    /// Datagrams sent and never received.
    var lost: Int { sent - received }
}
