/// Counters of a UDP socket, read at any time.
public struct OSCUDPStatistics: Sendable, Hashable {
    /// Datagrams handed to the receive handler.
    public var received: Int
    /// Datagrams longer than ``OSCUDPOptions/maximumDatagramSize``, dropped.
    public var truncated: Int
    /// Receive calls that failed with an error other than "would block".
    public var receiveErrors: Int
    /// Datagrams sent.
    public var sent: Int
    /// Sends dropped because the socket's send buffer was full.
    public var sendsWouldBlock: Int
    /// ICMP errors about earlier sends read from the error queue (only with a failure handler,
    /// see ``OSCUDPServer/start(_:onBatchEnd:onDeliveryFailure:)``).
    public var deliveryFailures: Int = 0
    /// Of those, the ones dropped because too many waited for the loop at once.
    public var deliveryFailuresDropped: Int = 0
}
