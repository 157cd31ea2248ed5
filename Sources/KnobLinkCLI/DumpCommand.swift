import Dispatch
import OSCCore
import OSCTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `knoblink dump`: prints every message received on a port in the format of liblo's `oscdump`.
struct DumpCommand: RunnableCommand {
    static let name = "dump"

    static let spec = CommandSpec(
        name: name,
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
                help: "The port to listen on (0 picks a free one), or osc.udp://:PORT, osc.tcp://:PORT, or "
                    + "osc.udp://GROUP:PORT to join a multicast group. The port is printed on standard error.")
        ],
        options: [
            .flag("tcp", help: "Listen for TCP connections instead of UDP datagrams."),
            .flag("hex", help: "Print the raw bytes of each packet after its lines."),
            .flag("raw", short: "r", help: "Write each message's bytes instead of its line, as oscdump -r does."),
            .flag("no-delay", help: "Print the messages of bundles timed in the future at once."),
            .flag(
                "line-buffered", short: "L", help: "Accepted for oscdump's -L; every line is written at once anyway."),
        ]
    )

    var transport: OSCURL.Transport
    var port: UInt16
    /// The multicast group of a URL such as `osc.udp://224.0.1.9:9000`, joined on every interface's default.
    var group: String?
    var printer: DumpPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        var positionals = PositionalReader(arguments.positionals)
        let text = try positionals.next("<port>")
        try positionals.finish()
        if text.contains("://") {
            let url = try OSCURL.parse(text, argument: "<port>")
            transport = url.transport
            port = url.port
            if OSCSocketAddress(numericHost: url.host, port: 0)?.isMulticast == true { group = url.host }
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
            writesRaw: arguments.has("raw"),
            delaysFutureBundles: !arguments.has("no-delay"),
            loop: OSCEventLoop(label: "knoblink.dump")
        )
    }

    func run() throws {
        let listener = try DumpListener.start(transport, port: port, group: group, printer: printer)
        // The signals are caught before the ready line is written: a signal sent as soon as the
        // line appears (as a test or a script does) would otherwise find SIGINT or SIGTERM already
        // ignored and no source yet to receive it, and the dump would never end.
        let signals = Self.exitOnSignals()
        KnobLinkTool.write(
            "Listening on \(transport == .udp ? "UDP" : "TCP") port \(listener.port)\n", to: .standardError)
        // The process ends in the signal handler; the sockets close with it.
        withExtendedLifetime((listener, signals)) { CommandQueue.parkMainThread() }
    }

    /// Makes SIGINT and SIGTERM exit with status 0, on the command queue.
    private static func exitOnSignals() -> any DispatchSourceRead {
        SignalWatch.watch([SIGINT, SIGTERM], queue: CommandQueue.queue) { _ in exit(0) }
    }
}
