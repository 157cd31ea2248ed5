import Parameters

/// How a ``RemoteParameterTree`` waits, retries and bounds what it accepts.
public struct RemoteTreeOptions: Sendable {
    /// How long one step of reading the tree may take (a ping, the groups, the list, the
    /// subscription), and how long a TCP connect may take. The descriptions of a large tree
    /// get more time: one more second for each 1000 parameters.
    public var timeout: Duration = .seconds(3)
    /// How often the server is asked whether it is still there (`/sys/stats`); the same
    /// interval paces reconnection attempts.
    public var keepAliveInterval: Duration = .seconds(1)
    /// How long without any packet from the server before it counts as lost.
    public var lostAfter: Duration = .seconds(3)
    /// After the mirror sent a value, or while a gesture holds the parameter, how long values
    /// from the server for it are held back (the latest is applied when the time is up), so
    /// that the server's echo of an older value does not pull a knob back under the user's
    /// hand (the client side of E4).
    public var feedbackGuard: Duration = .milliseconds(150)
    /// The most parameters and groups accepted from a server; a longer list is refused. At most
    /// `ParameterTree/maximumNodeCount`, which the tree enforces anyway.
    public var maximumNodes = ParameterTree.maximumNodeCount
    /// The highest rate at which the server sends one parameter's changes (the subscription's
    /// `maxHz`).
    public var maximumRate = 60.0

    /// Creates options with the defaults.
    public init() {}
}
