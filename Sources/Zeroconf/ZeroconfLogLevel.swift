/// How much a line that ``ZeroconfAdvertiser`` logs matters.
public enum ZeroconfLogLevel: Sendable, Equatable {
    /// What went as expected: the services are established, under which name.
    case info
    /// What a user may want to act on: no Avahi daemon, a name taken, the daemon gone.
    case warning
}
