/// Counters of a ``RemoteParameterTree``'s traffic, for tests and status displays.
public struct RemoteTreeStatistics: Sendable, Hashable {
    /// Values the mirror sent to the server (local changes).
    public var valuesSent = 0
    /// Touch begins and ends the mirror sent.
    public var touchesSent = 0
    /// Values from the server applied to the local tree.
    public var valuesApplied = 0
    /// Times the tree was read again after the server was lost or restarted.
    public var resyncs = 0
    /// Packets from the server that were not OSC.
    public var undecodable = 0

    /// Creates zeroed counters.
    public init() {}
}
