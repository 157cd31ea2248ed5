import KnobLink

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Writes the server's log events on standard error (or a log file, or nowhere, with
/// `--surface`), one line each with its level in front (`info: peer udp 127.0.0.1:9000
/// subscribed`), leaving out those less important than `level`.
struct ServeLogger: Sendable {
    /// The least important level written.
    var level: LogEvent.Level
    /// Where lines go; `nil` drops them.
    var destination: OutputFile? = .standardError

    /// Whether events of `eventLevel` are written.
    func logs(_ eventLevel: LogEvent.Level) -> Bool {
        eventLevel <= level
    }

    /// Writes one event, if its level is written; one `write` a line, so that lines from
    /// different threads never mix.
    func log(_ event: LogEvent) {
        guard logs(event.level), let destination else { return }
        KnobLinkTool.write("\(event.level): \(event.message)\n", to: destination)
    }
}
