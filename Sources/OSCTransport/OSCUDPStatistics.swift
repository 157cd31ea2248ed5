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
}
