import Dispatch
import KnobLink
import OSCTransport
import Parameters
import TerminalUI
import Zeroconf

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `knoblink serve`: puts a parameter tree on the network (PROTOCOL.md) until SIGINT or SIGTERM.
struct ServeCommand: RunnableCommand {
    static let name = "serve"

    static let spec = CommandSpec(
        name: name,
        abstract: "Serve a parameter tree over OSC (UDP and TCP).",
        discussion: """
            Serves the embedded default tree, or the tree file given with --tree, on UDP and TCP
            on one port. Peers set, query and subscribe to parameters as Docs/PROTOCOL.md
            describes; replies and feedback to UDP peers go to the sender's IP at the feedback
            port. When ready, the server prints 'Listening on UDP and TCP port N' on standard
            error; then it logs peers joining and leaving, errors, and a summary line every
            \(number(defaultSummaryInterval)) seconds while there is traffic. SIGINT and SIGTERM stop it cleanly (the state
            file is written) with exit status 0. With --surface it draws its knobs and toggles in
            the terminal instead (Docs/TERMINAL.md), logs to --log-file or nowhere, and SIGHUP
            stops it too. Otherwise SIGHUP reads the --tree file again (so does /sys/tree/reload):
            values of the parameters that remain are kept, and a file that fails to load is
            refused with the old tree kept.
            """,
        usage: ["[<options>]"],
        options: [
            .option("tree", value: "file", help: "The tree file to serve.", default: "the embedded default tree"),
            .option(
                "port", value: "port", help: "The UDP and TCP port; 0 picks a free one.", default: "\(defaults.port)"),
            .option(
                "bind", value: "host",
                help: "The local address to listen on, such as 127.0.0.1 or 0.0.0.0 (IPv4 alone).",
                default: defaults.bindHost ?? "every interface, IPv6 and IPv4 ('::')"),
            .option(
                "allow", value: "cidr", repeatable: true,
                help: "Accept peers, and urls they name, from this block (repeatable; replaces the default); "
                    + "'any' accepts everyone.",
                default: "loopback, private and link-local ranges"),
            .option(
                "trust", value: "cidr", repeatable: true,
                help: "Send more than 3 times the bytes of a request to a url in this block that never sent "
                    + "anything (repeatable; replaces the default); 'any' trusts everyone.",
                default: "loopback"),
            .option(
                "feedback-port", value: "port",
                help: "Where replies and feedback to UDP peers go: a port at the sender's IP, or 'auto' for the "
                    + "port each packet came from.",
                default: defaults.feedbackPort.description),
            .option("root", value: "path", help: "A prefix for every parameter address, such as /inst1."),
            .option(
                "name", value: "name", help: "The name in /sys/pong and in link hop lists.",
                default: defaults.name ?? "host:port"),
            .flag("no-implicit", help: "Do not subscribe peers that send to a parameter address."),
            .flag(
                "no-zeroconf",
                help: "Do not advertise the server (_osc._udp, _oscjson._tcp) through the Avahi daemon."),
            .option(
                "touch-guard-ms", value: "ms",
                help: "How long after a peer set a parameter its feedback for it is held.",
                default: "\(defaults.touchGuardMilliseconds)"),
            .option(
                "max-peers", value: "n", help: "The most subscribers and TCP connections.",
                default: "\(defaults.maxPeers)"),
            .option(
                "rate-limit", value: "n", help: "Messages a second accepted from each peer.",
                default: "\(defaults.rateLimit)"),
            .option(
                "max-frame", value: "bytes", help: "The longest TCP frame accepted.",
                default: "\(defaults.maxFrameLength)"),
            .option(
                "max-buffered", value: "bytes",
                help: "The most bytes of unfinished TCP frames held across all connections; beyond it the "
                    + "connection holding the most is closed.",
                default: "\(defaults.maxBufferedInput)"),
            .option(
                "first-frame-timeout", value: "seconds",
                help: "Seconds a TCP connection has to complete its first frame; 0 for no limit.",
                default: Self.number(defaults.firstFrameTimeout)),
            .option(
                "http-idle-timeout", value: "seconds",
                help: "Seconds an HTTP connection may idle between requests; 0 for no limit.",
                default: Self.number(defaults.httpIdleTimeout)),
            .option(
                "http-request-timeout", value: "seconds",
                help: "Seconds an HTTP request may take to arrive whole (408 after); 0 for no limit.",
                default: Self.number(defaults.httpRequestTimeout)),
            .option(
                "max-http-head", value: "bytes", help: "The longest HTTP request line and headers (431 beyond).",
                default: "\(defaults.maxHTTPHeadLength)"),
            .option(
                "max-bundle-depth", value: "n", help: "The deepest bundle nesting accepted.",
                default: "\(defaults.maxBundleDepth)"),
            .option("presets", value: "dir", help: "The directory of preset files (/sys/preset/...)."),
            .option(
                "max-presets", value: "n", help: "The most presets peers may save.",
                default: "\(defaults.presetLimits.maximumCount)"),
            .option(
                "max-preset-bytes", value: "n", help: "The most bytes all presets together may take.",
                default: "\(defaults.presetLimits.maximumBytes)"),
            .option(
                "preset-save-rate", value: "n",
                help:
                    "Preset saves a second, all peers together, in bursts of up to \(defaults.presetLimits.saveBurst).",
                default: "\(defaults.presetLimits.savesPerSecond)"),
            .option("state", value: "file", help: "A file that keeps the values across restarts."),
            .option(
                "audio", value: "file", help: "The audio file streamed to waveform visualisers (/wave/...).",
                default: "a generated demo signal"),
            .option("media-dir", value: "dir", help: "The directory below which /wave/load may read audio files."),
            .option(
                "link", value: "url", repeatable: true,
                help: "Chain another instance both ways, as osc.udp://host:port/ (repeatable)."),
            .option(
                "link-one-way", value: "url", repeatable: true,
                help: "Forward this instance's changes to another instance (repeatable)."),
            .option(
                "max-links", value: "n", help: "The most links at once, --link ones and /sys/link ones together.",
                default: "\(defaults.maxLinks)"),
            .option(
                "log-level", value: "level",
                help: "The least important messages logged: error, warning, info or debug.",
                default: "\(defaultLogLevel)"),
            .option(
                "summary", value: "seconds", help: "Seconds between summary lines; 0 turns them off.",
                default: number(defaultSummaryInterval)),
            .flag("surface", help: "Draw the tree's knobs and toggles in this terminal and control them there."),
            .option("log-file", value: "file", help: "With --surface, append the log to this file."),
            .option("theme", value: "scheme", help: "The surface's colours: light or dark.", default: "dark"),
            .option(
                "theme-file", value: "file",
                help:
                    "A JSON file of the six colours as RRGGBB, for light and dark, of the terminal surface and "
                    + "the web page (Docs/TERMINAL.md)."),
        ]
    )

    /// The defaults of every option, in one place: the server's own, and the command's.
    private static let defaults = KnobLinkServer.Configuration()
    static let defaultLogLevel = LogEvent.Level.info
    static let defaultSummaryInterval = 10.0

    /// `10` for 10.0, `0.5` for 0.5: a number as a user would type it.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }

    var configuration = KnobLinkServer.Configuration()
    var treePath: String?
    var logLevel = defaultLogLevel
    var summaryInterval = defaultSummaryInterval
    var surface = SurfaceOptions()
    /// Whether the server is advertised with Zeroconf (PROTOCOL.md section 7).
    var zeroconf = true

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        try PositionalReader(arguments.positionals).finish()
        treePath = arguments.value("tree")
        if let port = try Self.integer(arguments, "port", "port", in: 0...65535) { configuration.port = UInt16(port) }
        configuration.bindHost = arguments.value("bind")
        let allowed = arguments.values("allow")
        if !allowed.isEmpty { configuration.allowList = try Self.allowList(allowed) }
        let trusted = arguments.values("trust")
        if !trusted.isEmpty { configuration.trusted = try Self.allowList(trusted, option: "--trust <cidr>") }
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
        zeroconf = !arguments.has("no-zeroconf")
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
        if let value = try Self.integer(arguments, "max-buffered", "bytes", in: 16...(1 << 40)) {
            configuration.maxBufferedInput = value
        }
        if let seconds = try Self.timeout(arguments, "first-frame-timeout") {
            configuration.firstFrameTimeout = seconds
        }
        if let seconds = try Self.timeout(arguments, "http-idle-timeout") { configuration.httpIdleTimeout = seconds }
        if let seconds = try Self.timeout(arguments, "http-request-timeout") {
            configuration.httpRequestTimeout = seconds
        }
        if let value = try Self.integer(arguments, "max-http-head", "bytes", in: 256...(1 << 20)) {
            configuration.maxHTTPHeadLength = value
        }
        if let value = try Self.integer(arguments, "max-links", "n", in: 0...4096) { configuration.maxLinks = value }
        configuration.presetsDirectory = arguments.value("presets")
        if let value = try Self.integer(arguments, "max-presets", "n", in: 1...1_000_000) {
            configuration.presetLimits.maximumCount = value
        }
        if let value = try Self.integer(arguments, "max-preset-bytes", "n", in: 4096...(1 << 40)) {
            configuration.presetLimits.maximumBytes = value
        }
        if let value = try Self.integer(arguments, "preset-save-rate", "n", in: 1...10_000) {
            configuration.presetLimits.savesPerSecond = value
        }
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
        surface = try SurfaceOptions(parsing: arguments)
    }

    /// Seconds of a timeout option: 0 (no limit) or 0.1 to 86400; `nil` when not given.
    private static func timeout(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> Double? {
        guard let text = arguments.value(name) else { return nil }
        guard let seconds = Double(text), seconds == 0 || (seconds >= 0.1 && seconds <= 86_400) else {
            throw .invalidValue(
                text, for: "--\(name) <seconds>", reason: "expected 0 (no limit) or 0.1 to 86400 seconds")
        }
        return seconds
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

    /// The blocks of `--allow` or `--trust` (`option` names it in errors).
    private static func allowList(_ texts: [String], option: String = "--allow <cidr>") throws(UsageError) -> AllowList
    {
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
                throw .invalidValue(text, for: option, reason: reason)
            }
        }
        do {
            return try AllowList(parsing: texts)
        } catch {
            throw .invalidValue(texts.joined(separator: " "), for: option, reason: "\(error)")
        }
    }

    private static func linkURL(_ text: String, option: String) throws(UsageError) -> OSCURL {
        let url = try OSCURL.parse(text, argument: option)
        guard url.port != 0 else { throw .invalidValue(text, for: option, reason: "the port must not be 0") }
        return url
    }

    func run() throws {
        if surface.enabled { try surface.checkTerminal() }
        let theme = try surface.loadTheme()
        var configuration = configuration
        // The web page gets the same colours: the file, checked by loadTheme() above.
        configuration.themeJSON = try surface.themeFile.map { path in
            do {
                return try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw CommandFailure("--theme-file \(path): \(SystemFile.reason(error))")
            }
        }
        if let path = configuration.stateFile { try ServePathCheck.checkStateFile(path) }
        if let path = configuration.mediaDirectory { try ServePathCheck.checkMediaDirectory(path) }
        let tree = try TreeLoader.load(treePath)
        // SIGHUP and /sys/tree/reload read it again.
        configuration.treeFile = treePath
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
        let logger = ServeLogger(level: logLevel, destination: try surface.logDestination())
        server.log = { event in logger.log(event) }
        do {
            try server.start()
        } catch {
            throw CommandFailure("could not listen on UDP and TCP port \(configuration.port): \(error)")
        }
        // The signals are caught before the ready line is written: a supervisor (or a test)
        // that stops the server as soon as it is ready must not find SIGTERM ignored, as a
        // child of a test runner inherits it, or at its default, which skips the state file.
        let terminal = surface.enabled ? try startSurface(server: server, theme: theme, logger: logger) : nil
        let advertiser = zeroconf ? Self.advertiser(server, logger: logger) : nil
        let signals =
            Self.stopOnSignals(server, surface: terminal, advertiser: advertiser)
            + (terminal == nil ? [Self.reloadOnHangUp(server, logger: logger)] : [])
        let banner = ServeBanner(
            port: server.port, bindHost: configuration.bindHost, feedbackPort: configuration.feedbackPort,
            interfaces: (try? OSCInterfaceAddress.all()) ?? [])
        if let destination = logger.destination { KnobLinkTool.write(banner.text, to: destination) }
        // After the banner: the ready line stays the first, whatever the advertiser has to say.
        advertiser?.start()
        let summary = ServeSummary(server: server, logger: logger, interval: summaryInterval)
        withExtendedLifetime((signals, summary, terminal)) { CommandQueue.parkMainThread() }
    }

    /// The advertiser of the server as `_osc._udp` (its UDP port) and `_oscjson._tcp` (its HTTP port,
    /// the same number) under its name; without an Avahi daemon the advertiser logs one line and
    /// the server goes on.
    private static func advertiser(_ server: KnobLinkServer, logger: ServeLogger) -> ZeroconfAdvertiser {
        ZeroconfAdvertiser(
            name: server.name, services: [.osc(port: server.port), .oscQuery(port: server.port)],
            log: { level, message in
                logger.log(LogEvent(level: level == .info ? .info : .warning, message: message))
            })
    }

    /// Makes SIGHUP read the tree file again (PROTOCOL.md section 7, tree changes): the server
    /// logs what changed, or why the file was refused and the old tree kept.
    private static func reloadOnHangUp(_ server: KnobLinkServer, logger: ServeLogger) -> any DispatchSourceRead {
        SignalWatch.watch([SIGHUP], queue: .global()) { _ in
            // The server logs the outcome itself (its log line says what was kept, added, removed).
            _ = try? server.reloadTreeFile()
        }
    }

    /// Makes SIGINT and SIGTERM (and with a surface SIGHUP: its terminal is gone) stop the
    /// server (which writes the state file) and exit with status 0, on the command queue;
    /// the surface restores the terminal first, and the advertiser withdraws the server.
    private static func stopOnSignals(
        _ server: KnobLinkServer, surface: TerminalSurface?, advertiser: ZeroconfAdvertiser?
    ) -> [any DispatchSourceRead] {
        [
            SignalWatch.watch(
                surface == nil ? [SIGINT, SIGTERM] : [SIGINT, SIGTERM, SIGHUP], queue: CommandQueue.queue
            ) { _ in
                surface?.stop()
                // stop() returns once the server has stopped on its loop and the state file is written.
                server.stop()
                // Withdrawn before exiting: browsers then forget the server at once.
                advertiser?.stop()
                exit(0)
            }
        ]
    }
}
