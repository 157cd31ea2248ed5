import OSCCore
import OSCTransport

/// `knoblink send`: sends one message given on the command line, or the messages of standard
/// input, over UDP or TCP, optionally in one bundle.
struct SendCommand: RunnableCommand {
    static let name = "send"

    static let spec = CommandSpec(
        name: name,
        abstract: "Send OSC messages over UDP or TCP, like oscsend.",
        discussion: """
            Types: i int32, h int64, f float32, d double, s string, S symbol, c char (its first
            byte), m MIDI (8 hex digits), T true, F false, N nil, I impulse, as oscsend; and b
            blob (hex digits, 0x optional), t time tag (now, immediately, +SECONDS or
            SSSSSSSS.FFFFFFFF as oscdump prints it), r RGBA colour (8 hex digits), [ ] array.
            T F N I [ ] take no value.

            With the address '-', each line of standard input is one message, written
            ADDRESS [TYPES [VALUES ...]], with shell quoting ('a b', "a b", a\\ b); blank lines
            and lines starting with # are skipped. Without --bundle each line is sent as soon as
            it is read.

            Options must come before the values; a value that starts with '-' is read as a
            value if it is a number or comes after the address, or after '--'.
            """,
        usage: [
            "[<options>] <host> <port> <address> [<types>] [<values> ...]",
            "[<options>] <url> <address> [<types>] [<values> ...]",
        ],
        arguments: [
            ArgumentSpec(name: "host", help: "The receiver's host name or IP address."),
            ArgumentSpec(name: "port", help: "The receiver's port."),
            ArgumentSpec(
                name: "url",
                help: "The receiver as osc.udp://host:port/ or osc.tcp://host:port/; file:///path or - "
                    + "write the packets' bytes to a file or to standard output, as oscsend does."),
            ArgumentSpec(name: "address", help: "The OSC address, or '-' to read messages from standard input."),
            ArgumentSpec(name: "types", help: "The type tags of the values.", isOptional: true),
            ArgumentSpec(name: "values", help: "One value for each type that takes one.", isRepeating: true),
        ],
        options: [
            .flag("tcp", help: "Send over TCP instead of UDP."),
            .option(
                "framing", value: "framing",
                help: "TCP framing: 'length' (OSC 1.0 int32 length prefix, as liblo's osc.tcp) or 'slip' "
                    + "(OSC 1.1). Implies --tcp. (default: length)"),
            .flag("bundle", help: "Send all the messages in one bundle."),
            .option(
                "time-tag", value: "time-tag",
                help: "The bundle's time tag: now, immediately, +SECONDS or SSSSSSSS.FFFFFFFF. Implies --bundle. "
                    + "(default: immediately)"),
        ],
        optionsEndAfterPositionals: 3
    )

    /// Where the messages come from.
    enum Source: Sendable, Equatable {
        case message(OSCMessage)
        case standardInput
    }

    var destination: SendDestination
    var framing: OSCFraming
    var source: Source
    /// The time tag of the bundle that carries every message, or `nil` to send bare messages.
    var bundleTimeTag: OSCTimeTag?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        framing = .lengthPrefix
        if let text = arguments.value("framing") {
            guard let chosen = Self.framing(named: text) else {
                throw .invalidValue(text, for: "--framing <framing>", reason: "expected 'length' or 'slip'")
            }
            framing = chosen
        }
        if let text = arguments.value("time-tag") {
            guard let timeTag = TimeTagText.parse(text) else {
                throw .invalidValue(text, for: "--time-tag <time-tag>", reason: "expected \(TimeTagText.expected)")
            }
            bundleTimeTag = timeTag
        } else if arguments.has("bundle") {
            bundleTimeTag = .immediately
        }

        var positionals = PositionalReader(arguments.positionals)
        destination = try Self.destination(&positionals)
        if case .network(var url) = destination, arguments.has("tcp") || arguments.value("framing") != nil {
            url.transport = .tcp
            destination = .network(url)
        }
        let address = try positionals.next("<address>")
        if address == "-" {
            try positionals.finish()
            source = .standardInput
        } else {
            source = .message(try Self.message(address, types: positionals.optional(), values: positionals.rest()))
        }
    }

    static func framing(named name: String) -> OSCFraming? {
        switch name {
        case "length", "length-prefix", "1.0": .lengthPrefix
        case "slip", "1.1": .slip
        default: nil
        }
    }

    /// `<url>` when the first argument has a scheme, `-` for standard output, else `<host> <port>`.
    private static func destination(_ positionals: inout PositionalReader) throws(UsageError) -> SendDestination {
        let first = try positionals.next("<host>")
        if first == "-" { return .standardOutput }
        if first.hasPrefix("file://") {
            let path = String(first.dropFirst("file://".count))
            guard path.hasPrefix("/") else {
                throw .invalidValue(first, for: "<url>", reason: "a file URL is file:///absolute/path")
            }
            return .file(path)
        }
        if first.contains("://") { return .network(try OSCURL.parse(first, argument: "<url>")) }
        let portText = try positionals.next("<port>")
        guard let port = UInt16(portText), port != 0 else {
            throw .invalidValue(portText, for: "<port>", reason: "expected a number from 1 to 65535")
        }
        return .network(OSCURL(transport: .udp, host: first, port: port))
    }

    /// A message from its address, type tags and values, as `oscsend` reads them.
    static func message(_ address: String, types: String?, values: [String]) throws(UsageError) -> OSCMessage {
        guard address.hasPrefix("/") else {
            throw .invalidValue(address, for: "<address>", reason: "an OSC address starts with '/'")
        }
        return OSCMessage(address, try MessageValueParser.arguments(types: types ?? "", values: values))
    }

    func run() throws {
        let sender = try PacketSender(destination: destination, framing: framing)
        switch source {
        case .message(let message):
            try sender.send(packet(of: [message]))
        case .standardInput:
            var pending: [OSCMessage] = []
            var lineNumber = 0
            while let line = readLine(strippingNewline: true) {
                lineNumber += 1
                guard let message = try Self.message(line: line, number: lineNumber) else { continue }
                if bundleTimeTag == nil {
                    try sender.send(.message(message))
                } else {
                    pending.append(message)
                }
            }
            if bundleTimeTag != nil { try sender.send(packet(of: pending)) }
        }
        try sender.finish()
    }

    /// The message of one line of standard input, or `nil` for a blank line or a comment.
    /// - Throws: ``CommandFailure`` naming the line.
    static func message(line: String, number: Int) throws(CommandFailure) -> OSCMessage? {
        do {
            let words = try LineTokenizer.words(line[...])
            guard let address = words.first else { return nil }
            return try message(address, types: words.dropFirst().first, values: Array(words.dropFirst(2)))
        } catch let error as LineTokenizer.Failure {
            throw CommandFailure("standard input, line \(number): \(error.message)")
        } catch let error as UsageError {
            throw CommandFailure("standard input, line \(number): \(error.message)")
        } catch {
            throw CommandFailure("standard input, line \(number): \(error)")
        }
    }

    /// One bare message, or the bundle of all messages when `--bundle` or `--time-tag` is given.
    func packet(of messages: [OSCMessage]) -> OSCPacket {
        guard let bundleTimeTag else { return .message(messages[0]) }
        return .bundle(OSCBundle(timeTag: bundleTimeTag, messages.map { .message($0) }))
    }
}
