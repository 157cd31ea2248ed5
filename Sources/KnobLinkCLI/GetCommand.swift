import OSCCore
import OSCTransport

/// `knoblink get`: asks a KnobLink server for one parameter's value and prints the answer.
struct GetCommand: RunnableCommand {
    static let name = "get"

    static let spec = CommandSpec(
        name: name,
        abstract: "Ask a KnobLink server for a parameter's value.",
        discussion: """
            Sends ADDRESS/get to the server with a reply URL of this command's own socket (on
            port 0), and prints the answer as 'knoblink dump' prints a message, without the time
            tag: /knob/gain f 0.500000. Every facet reads the same way: /knob/gain/raw (in the
            parameter's units), /knob/gain/str (as text) and /knob/gain/info (its description).
            Over TCP the answer comes back on the connection. A
            /sys/error answer (a KnobLink server sends it to the reply URL too) is printed on
            standard error, and so is a missing answer; the exit status is then 1.
            """,
        usage: [
            "[<options>] <host> <port> <address>",
            "[<options>] <url> <address>",
        ],
        arguments: [
            ArgumentSpec(name: "host", help: "The server's host name or IP address."),
            ArgumentSpec(name: "port", help: "The server's port."),
            ArgumentSpec(name: "url", help: "The server as osc.udp://host:port/ or osc.tcp://host:port/."),
            ArgumentSpec(name: "address", help: "The parameter's OSC address, such as /knob/gain or /knob/gain/str."),
        ],
        options: [
            .option("timeout", value: "seconds", help: "How long to wait for the answer. (default: 2)"),
            .flag("tcp", help: "Ask over TCP instead of UDP."),
        ]
    )

    var url: OSCURL
    var address: String
    var timeout: Double

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        timeout = 2
        if let text = arguments.value("timeout") {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
                throw .invalidValue(text, for: "--timeout <seconds>", reason: "expected a positive number of seconds")
            }
            timeout = seconds
        }
        var positionals = PositionalReader(arguments.positionals)
        let first = try positionals.next("<host>")
        if first.contains("://") {
            url = try OSCURL.parse(first, argument: "<url>")
        } else {
            let portText = try positionals.next("<port>")
            guard let port = UInt16(portText), port != 0 else {
                throw .invalidValue(portText, for: "<port>", reason: "expected a number from 1 to 65535")
            }
            url = OSCURL(transport: .udp, host: first, port: port)
        }
        if arguments.has("tcp") { url.transport = .tcp }
        address = try positionals.next("<address>")
        try positionals.finish()
        guard address.hasPrefix("/") else {
            throw .invalidValue(address, for: "<address>", reason: "an OSC address starts with '/'")
        }
    }

    func run() throws {
        let answer = try GetExchange.ask(url, address: address, timeout: timeout)
        if answer.address == "/sys/error" {
            throw CommandFailure(Self.errorText(answer))
        }
        try KnobLinkTool.writeResult(Self.line(of: answer))
    }

    /// The message as `knoblink dump` prints it, without the time tag and its space in front.
    static func line(of message: OSCMessage) -> String {
        // The time tag is always `%08x.%08x`: 17 characters.
        String(DumpFormat.line(of: message, timeTag: .immediately, now: .immediately).dropFirst(18))
    }

    /// `/knob/nope: unknown address` for `/sys/error s address s reason`; the whole message as
    /// `dump` prints it when the server sent another shape.
    static func errorText(_ message: OSCMessage) -> String {
        if message.arguments.count == 2, case .string(let address) = message.arguments[0],
            case .string(let reason) = message.arguments[1]
        {
            return address.isEmpty ? "the server answered: \(reason)" : "\(address): \(reason)"
        }
        var text = line(of: message)
        text.removeLast()
        return "the server answered \(text)"
    }
}
