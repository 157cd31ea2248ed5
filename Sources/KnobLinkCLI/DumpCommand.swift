import Dispatch
import Foundation
import OSCCore
import OSCTransport

/// `knoblink dump`: prints every message received on a port in the format of liblo's `oscdump`.
struct DumpCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "dump",
        abstract: "Print received OSC messages exactly as oscdump does.",
        discussion: """
            Each message is one line: the time tag (the current time for 'immediately'), the
            address, the type tags and the values, exactly as oscdump 0.31 prints them, so that
            scripts can use either tool. Messages of a bundle timed in the future are printed
            when it is due, as oscdump does. A malformed packet is reported on standard error
            with the reason, and the dump goes on. Lines are written as soon as their packet
            arrives; SIGINT and SIGTERM end the dump. Over TCP, each connection's framing
            (OSC 1.0 length prefix or OSC 1.1 SLIP) is told from its first byte.
            """,
        arguments: [
            ArgumentSpec(
                name: "port",
                help: "The port to listen on (0 picks a free one), or osc.udp://:PORT or osc.tcp://:PORT. "
                    + "The port is printed on standard error.")
        ],
        options: [
            .flag("tcp", help: "Listen for TCP connections instead of UDP datagrams."),
            .flag("hex", help: "Print the raw bytes of each packet after its lines."),
            .flag("no-delay", help: "Print the messages of bundles timed in the future at once."),
            .flag(
                "line-buffered", short: "L", help: "Accepted for oscdump's -L; every line is written at once anyway."),
        ]
    )

    var transport: OSCURL.Transport
    var port: UInt16
    var printer: DumpPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        var positionals = PositionalReader(arguments.positionals)
        let text = try positionals.next("<port>")
        try positionals.finish()
        if text.contains("://") {
            let url: OSCURL
            do {
                url = try OSCURL.parse(text)
            } catch {
                guard case .invalidURL(_, let reason) = error else {
                    throw .invalidValue(text, for: "<port>", reason: nil)
                }
                throw .invalidValue(text, for: "<port>", reason: reason)
            }
            transport = url.transport
            port = url.port
        } else {
            guard let number = UInt16(text) else {
                throw .invalidValue(text, for: "<port>", reason: "expected a number from 0 to 65535 or a URL")
            }
            transport = .udp
            port = number
        }
        if arguments.has("tcp") { transport = .tcp }
        printer = DumpPrinter(
            showsHex: arguments.has("hex"),
            delaysFutureBundles: !arguments.has("no-delay"),
            loop: OSCEventLoop(label: "knoblink.dump")
        )
    }

    func run() throws {
        let listener = try DumpListener.start(transport, port: port, printer: printer)
        KnobLinkTool.write(
            "Listening on \(transport == .udp ? "UDP" : "TCP") port \(listener.port)\n", to: .standardError)
        // The process ends in the signal handler; the sockets close with it.
        withExtendedLifetime(listener) { Self.waitForTermination() }
    }

    /// Blocks until SIGINT or SIGTERM, then exits with status 0.
    private static func waitForTermination() -> Never {
        let sources = [SIGINT, SIGTERM].map { number in
            // Ignored first, so that the signal reaches the source instead of ending the process.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { @Sendable in exit(0) }
            source.resume()
            return source
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }
}
