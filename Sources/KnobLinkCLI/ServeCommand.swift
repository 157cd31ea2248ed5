import Dispatch
import Foundation
import KnobLink
import OSCTransport
import Parameters

/// `knoblink serve`: puts a parameter tree on the network (PROTOCOL.md) until SIGINT or SIGTERM.
struct ServeCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve a parameter tree over OSC (UDP and TCP).",
        discussion: """
            Serves the embedded default tree, or the tree file given with --tree, on UDP and TCP
            on one port. Peers set, query and subscribe to parameters as Docs/PROTOCOL.md
            describes; replies and feedback to UDP peers go to the sender's IP at the feedback
            port. When ready, the server prints 'Listening on UDP and TCP port N' on standard
            error; then it logs peers joining and leaving, errors, and a summary line every
            10 seconds while there is traffic. SIGINT and SIGTERM stop it cleanly (the state
            file is written) with exit status 0.
            """,
        usage: ["[<options>]"],
        options: [
            .option("tree", value: "file", help: "The tree file to serve. (default: the embedded default tree)"),
            .option("port", value: "port", help: "The UDP and TCP port; 0 picks a free one. (default: 8000)"),
            .option(
                "bind", value: "host",
                help: "The local address to listen on; '::' for IPv6 and IPv4. (default: every IPv4 interface)"),
            .option(
                "allow", value: "cidr", repeatable: true,
                help: "Accept peers from this block (repeatable; replaces the default of loopback, private and "
                    + "link-local ranges); 'any' accepts everyone."),
            .option(
                "feedback-port", value: "port",
                help: "Where replies and feedback to UDP peers go: a port at the sender's IP, or 'auto' for the "
                    + "port each packet came from. (default: 9000)"),
            .option("root", value: "path", help: "A prefix for every parameter address, such as /inst1."),
            .option("name", value: "name", help: "The name in /sys/pong and in link hop lists. (default: host:port)"),
            .flag("no-implicit", help: "Do not subscribe peers that send to a parameter address."),
            .option(
                "touch-guard-ms", value: "ms",
                help: "How long after a peer set a parameter its feedback for it is held. (default: 150)"),
            .option("max-peers", value: "n", help: "The most subscribers and TCP connections. (default: 64)"),
            .option("rate-limit", value: "n", help: "Messages a second accepted from each peer. (default: 2000)"),
            .option("max-frame", value: "bytes", help: "The longest TCP frame accepted. (default: 1048576)"),
            .option("max-bundle-depth", value: "n", help: "The deepest bundle nesting accepted. (default: 8)"),
            .option("presets", value: "dir", help: "The directory of preset files (/sys/preset/...)."),
            .option("state", value: "file", help: "A file that keeps the values across restarts."),
            .option(
                "audio", value: "file",
                help: "The audio file streamed to waveform visualisers (/wave/...). (default: a generated demo signal)"),
            .option("media-dir", value: "dir", help: "The directory below which /wave/load may read audio files."),
            .option(
                "link", value: "url", repeatable: true,
                help: "Chain another instance both ways, as osc.udp://host:port/ (repeatable)."),
            .option(
                "link-one-way", value: "url", repeatable: true,
                help: "Forward this instance's changes to another instance (repeatable)."),
            .option(
                "log-level", value: "level",
                help: "The least important messages logged: error, warning, info or debug. (default: info)"),
            .option(
                "summary", value: "seconds",
                help: "Seconds between summary lines; 0 turns them off. (default: 10)"),
        ]
    )

    var configuration = KnobLinkServer.Configuration()
    var treePath: String?
    var logLevel = LogEvent.Level.info
    var summaryInterval = 10.0

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        try PositionalReader(arguments.positionals).finish()
        treePath = arguments.value("tree")
        if let port = try Self.integer(arguments, "port", "port", in: 0...65535) { configuration.port = UInt16(port) }
        configuration.bindHost = arguments.value("bind")
        let allowed = arguments.values("allow")
        if !allowed.isEmpty { configuration.allowList = try Self.allowList(allowed) }
        if let text = arguments.value("feedback-port") {
            if text == "auto" {
                configuration.feedbackPort = .auto
            } else {
                guard let port = UInt16(text), port != 0 else {
                    throw .invalidValue(text, for: "--feedback-port <port>", reason: "expected 1 to 65535 or 'auto'")
                }
                configuration.feedbackPort = .fixed(port)
            }
        }
        if let root = arguments.value("root") { configuration.root = root }
        configuration.name = arguments.value("name")
        configuration.implicitSubscriptions = !arguments.has("no-implicit")
        if let value = try Self.integer(arguments, "touch-guard-ms", "ms", in: 0...60_000) {
            configuration.touchGuardMilliseconds = value
        }
        if let value = try Self.integer(arguments, "max-peers", "n", in: 1...65536) { configuration.maxPeers = value }
        if let value = try Self.integer(arguments, "rate-limit", "n", in: 1...10_000_000) {
            configuration.rateLimit = value
        }
        if let value = try Self.integer(arguments, "max-frame", "bytes", in: 16...(1 << 30)) {
            configuration.maxFrameLength = value
        }
        if let value = try Self.integer(arguments, "max-bundle-depth", "n", in: 1...64) {
            configuration.maxBundleDepth = value
        }
        configuration.presetsDirectory = arguments.value("presets")
        configuration.stateFile = arguments.value("state")
        configuration.audioFile = arguments.value("audio")
        configuration.mediaDirectory = arguments.value("media-dir")
        for text in arguments.values("link") {
            configuration.links.append(LinkConfiguration(url: try Self.linkURL(text, option: "--link <url>")))
        }
        for text in arguments.values("link-one-way") {
            let url = try Self.linkURL(text, option: "--link-one-way <url>")
            configuration.links.append(LinkConfiguration(url: url, twoWay: false))
        }
        if let text = arguments.value("log-level") {
            guard let level = LogEvent.Level.allCases.first(where: { "\($0)" == text }) else {
                throw .invalidValue(text, for: "--log-level <level>", reason: "expected error, warning, info or debug")
            }
            logLevel = level
        }
        if let text = arguments.value("summary") {
            guard let seconds = Double(text), seconds == 0 || (seconds >= 0.1 && seconds <= 86_400) else {
                throw .invalidValue(
                    text, for: "--summary <seconds>", reason: "expected 0 (no summary) or 0.1 to 86400 seconds")
            }
            summaryInterval = seconds
        }
    }

    /// A whole number within `range`, or `nil` when the option was not given.
    private static func integer(
        _ arguments: ParsedArguments, _ name: String, _ valueName: String, in range: ClosedRange<Int>
    ) throws(UsageError) -> Int? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(
                text, for: "--\(name) <\(valueName)>",
                reason: "expected a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func allowList(_ texts: [String]) throws(UsageError) -> AllowList {
        for text in texts where text.lowercased() != "any" {
            do {
                _ = try CIDR(parsing: text)
            } catch {
                let reason =
                    switch error {
                    case .empty: "expected an address with an optional /prefix, or 'any'"
                    case .invalidAddress(_, let reason): reason
                    case .invalidPrefixLength(_, let maximum): "the prefix length must be a number from 0 to \(maximum)"
                    }
                throw .invalidValue(text, for: "--allow <cidr>", reason: reason)
            }
        }
        do {
            return try AllowList(parsing: texts)
        } catch {
            throw .invalidValue(texts.joined(separator: " "), for: "--allow <cidr>", reason: "\(error)")
        }
    }

    private static func linkURL(_ text: String, option: String) throws(UsageError) -> OSCURL {
        let url = try OSCURL.parse(text, argument: option)
        guard url.port != 0 else { throw .invalidValue(text, for: option, reason: "the port must not be 0") }
        return url
    }

    func run() throws {
        let tree = try TreeLoader.load(treePath)
        let server: KnobLinkServer
        do {
            server = try KnobLinkServer(tree: tree, configuration: configuration)
        } catch let error as KnobLinkServerError {
            if case .invalidRoot = error {
                throw UsageError.invalidValue(
                    configuration.root, for: "--root <path>", reason: "expected an address such as /inst1")
            }
            throw CommandFailure("\(error)")
        } catch {
            throw CommandFailure("\(error)")
        }
        let logger = ServeLogger(level: logLevel)
        server.log = { event in logger.log(event) }
        do {
            try server.start()
        } catch {
            throw CommandFailure("could not listen on UDP and TCP port \(configuration.port): \(error)")
        }
        // The signals are caught before the ready line is written: a supervisor (or a test)
        // that stops the server as soon as it is ready must not find SIGTERM ignored, as a
        // child of a test runner inherits it, or at its default, which skips the state file.
        let signals = Self.stopOnSignals(server)
        KnobLinkTool.write("Listening on UDP and TCP port \(server.port)\n", to: .standardError)
        let summary = ServeSummary(server: server, logger: logger, interval: summaryInterval)
        withExtendedLifetime((signals, summary)) { dispatchMain() }
    }

    /// Makes SIGINT and SIGTERM stop the server (which writes the state file) and exit with
    /// status 0, once the main queue runs.
    private static func stopOnSignals(_ server: KnobLinkServer) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            // Ignored first, so that the signal reaches the source instead of ending the process.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { @Sendable in
                // stop() returns once the server has stopped on its loop and the state file is written.
                server.stop()
                exit(0)
            }
            source.resume()
            return source
        }
    }
}
