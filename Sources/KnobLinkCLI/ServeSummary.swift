import Dispatch
import KnobLink
import Locking

/// The periodic one-line summary of `knoblink serve`, logged at info level:
/// `info: 2 peers, 1 subscriber, 1520 messages in, 3020 packets out, 0 dropped`.
///
/// A line is written only when a figure changed since the last one, so an idle server stays
/// quiet.
final class ServeSummary: Sendable {
    /// The counters that count input thrown away, summed into "dropped".
    static let dropCounters: Set<String> = [
        "malformed", "tooDeep", "rateLimited", "disallowedPeer", "oversizedFrame", "otherProtocol",
        "scheduleRefused", "subscriberCap", "sendFailures",
    ]

    /// Set once, here; a dispatch source may be cancelled from any thread (libdispatch locks it),
    /// though its protocol is not marked `Sendable`.
    nonisolated(unsafe) private let timer: DispatchSourceTimer?

    /// Starts writing summaries of `server` every `interval` seconds; none when the interval is
    /// 0 or the logger leaves out info lines.
    init(server: KnobLinkServer, logger: ServeLogger, interval: Double) {
        guard interval > 0, logger.logs(.info) else {
            timer = nil
            return
        }
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "knoblink.serve.summary"))
        // Starting from the line of the moment keeps a server that nobody talks to silent.
        let lastLine = Locked(Self.line(server.statistics()))
        source.setEventHandler {
            let line = Self.line(server.statistics())
            let changed = lastLine.withLock { last in
                defer { last = line }
                return last != line
            }
            if changed { logger.log(LogEvent(level: .info, message: line)) }
        }
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.resume()
        timer = source
    }

    /// The summary of a server's statistics.
    static func line(_ statistics: [(name: String, value: Int)]) -> String {
        func value(_ name: String) -> Int { statistics.first { $0.name == name }?.value ?? 0 }
        let dropped = statistics.filter { dropCounters.contains($0.name) }.reduce(0) { $0 + $1.value }
        return [
            plural(value("peers"), "peer"), plural(value("subscribers"), "subscriber"),
            "\(value("messagesReceived")) messages in", "\(value("packetsSent")) packets out", "\(dropped) dropped",
        ].joined(separator: ", ")
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    deinit {
        timer?.cancel()
    }
}
