/// Something the server reports: peers joining and leaving, refused input, errors.
public struct LogEvent: Sendable, Hashable, CustomStringConvertible {
    /// How important an event is, from the most to the least.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// The server cannot do what it was asked (a send failed, a file could not be written).
        case error
        /// A peer's input was refused or a peer was dropped.
        case warning
        /// Peers joining and leaving, subscriptions.
        case info
        /// Everything else.
        case debug

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `error`, `warning`, `info` or `debug`, as `--log-level` takes it and a log line starts.
        /// Written out: without it, every log line found the case's name by reflection.
        public var description: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    /// The level.
    public var level: Level
    /// A one-line English message.
    public var message: String

    /// Creates an event.
    public init(level: Level, message: String) {
        self.level = level
        self.message = message
    }

    /// `info: peer udp 127.0.0.1:9000 subscribed`.
    public var description: String { "\(level): \(message)" }
}
