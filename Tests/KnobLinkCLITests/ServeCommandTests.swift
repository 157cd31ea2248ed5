import Foundation
import Parameters
import Testing

@testable import KnobLinkCLI

/// `knoblink serve`: its help and usage errors byte for byte, and the binary's life cycle: the
/// ready line, logs, a clean stop on SIGINT and SIGTERM, a port in use, the state file.
@Suite(.offThePool) struct ServeCommandTests {
    static let help = """
        OVERVIEW: Serve a parameter tree over OSC (UDP and TCP).

        Serves the embedded default tree, or the tree file given with --tree, on UDP and
        TCP on one port. Peers set, query and subscribe to parameters as
        Docs/PROTOCOL.md describes; replies and feedback to UDP peers go to the sender's
        IP at the feedback port. When ready, the server prints 'Listening on UDP and TCP
        port N' on standard error; then it logs peers joining and leaving, errors, and a
        summary line every 10 seconds while there is traffic. SIGINT and SIGTERM stop it
        cleanly (the state file is written) with exit status 0. With --surface it draws
        its knobs and toggles in the terminal instead (Docs/TERMINAL.md), logs to
        --log-file or nowhere, and SIGHUP stops it too. Otherwise SIGHUP reads the
        --tree file again (so does /sys/tree/reload): values of the parameters that
        remain are kept, and a file that fails to load is refused with the old tree
        kept.

        USAGE: knoblink serve [<options>]

        OPTIONS:
          --tree <file>           The tree file to serve. (default: the embedded default
                                  tree)
          --port <port>           The UDP and TCP port; 0 picks a free one. (default:
                                  8000)
          --bind <host>           The local address to listen on, such as 127.0.0.1 or
                                  0.0.0.0 (IPv4 alone). (default: every interface, IPv6
                                  and IPv4 ('::'))
          --allow <cidr>          Accept peers, and urls they name, from this block
                                  (repeatable; replaces the default); 'any' accepts
                                  everyone. (default: loopback, private and link-local
                                  ranges)
          --trust <cidr>          Send more than 3 times the bytes of a request to a url
                                  in this block that never sent anything (repeatable;
                                  replaces the default); 'any' trusts everyone.
                                  (default: loopback)
          --feedback-port <port>  Where replies and feedback to UDP peers go: a port at
                                  the sender's IP, or 'auto' for the port each packet
                                  came from. (default: 9000)
          --root <path>           A prefix for every parameter address, such as /inst1.
          --name <name>           The name in /sys/pong and in link hop lists. (default:
                                  host:port)
          --no-implicit           Do not subscribe peers that send to a parameter
                                  address.
          --no-zeroconf           Do not advertise the server (_osc._udp, _oscjson._tcp)
                                  through the Avahi daemon.
          --touch-guard-ms <ms>   How long after a peer set a parameter its feedback for
                                  it is held. (default: 150)
          --max-peers <n>         The most subscribers and TCP connections. (default:
                                  64)
          --rate-limit <n>        Messages a second accepted from each peer. (default:
                                  2000)
          --max-frame <bytes>     The longest TCP frame accepted. (default: 1048576)
          --max-buffered <bytes>  The most bytes of unfinished TCP frames held across
                                  all connections; beyond it the connection holding the
                                  most is closed. (default: 16777216)
          --first-frame-timeout <seconds>
                                  Seconds a TCP connection has to complete its first
                                  frame; 0 for no limit. (default: 10)
          --http-idle-timeout <seconds>
                                  Seconds an HTTP connection may idle between requests;
                                  0 for no limit. (default: 30)
          --http-request-timeout <seconds>
                                  Seconds an HTTP request may take to arrive whole (408
                                  after); 0 for no limit. (default: 10)
          --max-http-head <bytes> The longest HTTP request line and headers (431
                                  beyond). (default: 8192)
          --max-bundle-depth <n>  The deepest bundle nesting accepted. (default: 8)
          --presets <dir>         The directory of preset files (/sys/preset/...).
          --max-presets <n>       The most presets peers may save. (default: 256)
          --max-preset-bytes <n>  The most bytes all presets together may take.
                                  (default: 67108864)
          --preset-save-rate <n>  Preset saves a second, all peers together, in bursts
                                  of up to 10. (default: 2)
          --state <file>          A file that keeps the values across restarts.
          --audio <file>          The audio file streamed to waveform visualisers
                                  (/wave/...). (default: a generated demo signal)
          --media-dir <dir>       The directory below which /wave/load may read audio
                                  files.
          --link <url>            Chain another instance both ways, as
                                  osc.udp://host:port/ (repeatable).
          --link-one-way <url>    Forward this instance's changes to another instance
                                  (repeatable).
          --max-links <n>         The most links at once, --link ones and /sys/link ones
                                  together. (default: 16)
          --log-level <level>     The least important messages logged: error, warning,
                                  info or debug. (default: info)
          --summary <seconds>     Seconds between summary lines; 0 turns them off.
                                  (default: 10)
          --surface               Draw the tree's knobs and toggles in this terminal and
                                  control them there.
          --log-file <file>       With --surface, append the log to this file.
          --theme <scheme>        The surface's colours: light or dark. (default: dark)
          --theme-file <file>     A JSON file of the six colours as RRGGBB, for light
                                  and dark, of the terminal surface and the web page
                                  (Docs/TERMINAL.md).
          -h, --help              Show help information.

        """

    static let usage = """
        Usage: knoblink serve [<options>]
          See 'knoblink serve --help' for more information.

        """

    static let readyPrefix = "Listening on UDP and TCP port "

    /// `knoblink serve --port 0 --no-zeroconf` with `options`, once it has printed the port it
    /// bound (without Zeroconf: whether an Avahi daemon runs must not change what the tests see;
    /// ZeroconfServeTests has its own).
    static func start(_ options: [String] = []) throws -> (process: RunningProcess, port: UInt16) {
        let process = try RunningProcess(Tool.knoblink, ["serve", "--port", "0", "--no-zeroconf"] + options)
        let ready = process.wait(timeout: .seconds(10)) { readyLine(in: $0.stderr) != nil }
        try #require(ready, "knoblink serve did not start: \(process.stderr)")
        let port = try #require(readyLine(in: process.stderr).flatMap { UInt16($0.dropFirst(readyPrefix.count)) })
        return (process, port)
    }

    /// The lines of standard error after the banner, which ends with how to stop the server.
    private static func afterBanner(_ text: String) -> [Substring] {
        Array(text.split(separator: "\n").drop { $0 != "Stop the server with Ctrl-C." }.dropFirst())
    }

    static func readyLine(in text: String) -> Substring? {
        text.split(separator: "\n").first { $0.hasPrefix(readyPrefix) && text.contains($0 + "\n") }
    }

    /// What `knoblink get` prints for `address` on the server at `port`.
    private static func value(_ port: UInt16, _ address: String) -> String? {
        try? Tool.knoblink("get", "--timeout", "0.5", "127.0.0.1", "\(port)", address).stdout
    }

    private static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-serve-\(UUID())-\(name)").path
    }

    @Test(arguments: [["serve", "--help"], ["serve", "-h"], ["help", "serve"], ["serve", "--port", "x", "--help"]])
    func help(arguments: [String]) throws {
        #expect(try Tool.run(Tool.knoblink, arguments) == Tool.Result(status: 0, stdout: Self.help, stderr: ""))
    }

    @Test(arguments: [
        (["extra"], "Unexpected argument 'extra'"),
        (["--bogus"], "Unknown option '--bogus'"),
        (["--port"], "Missing value for '--port <port>'"),
        (["--port", "70000"], "The value '70000' is invalid for '--port <port>': expected a number from 0 to 65535"),
        (["--port=x"], "The value 'x' is invalid for '--port <port>': expected a number from 0 to 65535"),
        (
            ["--allow", "10.0.0.0/8", "--allow", "10.0.0.300/8"],
            "The value '10.0.0.300/8' is invalid for '--allow <cidr>': octet '300' is larger than 255"
        ),
        (
            ["--allow", "10.0.0.0/40"],
            "The value '10.0.0.0/40' is invalid for '--allow <cidr>': the prefix length must be a number from 0 to 32"
        ),
        (
            ["--feedback-port", "0"],
            "The value '0' is invalid for '--feedback-port <port>': expected 1 to 65535 or 'auto'"
        ),
        (
            ["--feedback-port", "any"],
            "The value 'any' is invalid for '--feedback-port <port>': expected 1 to 65535 or 'auto'"
        ),
        (
            ["--log-level", "loud"],
            "The value 'loud' is invalid for '--log-level <level>': expected error, warning, info or debug"
        ),
        (["--max-peers", "0"], "The value '0' is invalid for '--max-peers <n>': expected a number from 1 to 65536"),
        (
            ["--link", "ftp://h:1"],
            "The value 'ftp://h:1' is invalid for '--link <url>': scheme 'ftp' is not osc.udp or osc.tcp"
        ),
        (
            ["--link-one-way", "osc.udp://h:0/"],
            "The value 'osc.udp://h:0/' is invalid for '--link-one-way <url>': the port must not be 0"
        ),
        (
            ["--summary", "-1"],
            "The value '-1' is invalid for '--summary <seconds>': expected 0 (no summary) or 0.1 to 86400 seconds"
        ),
        (
            ["--summary", "0.01"],
            "The value '0.01' is invalid for '--summary <seconds>': expected 0 (no summary) or 0.1 to 86400 seconds"
        ),
        (["--root", "inst1"], "The value 'inst1' is invalid for '--root <path>': expected an address such as /inst1"),
        (["--no-implicit=1"], "The option '--no-implicit' does not take a value"),
    ])
    func usageError(arguments: [String], message: String) throws {
        let result = try Tool.run(Tool.knoblink, ["serve"] + arguments)
        #expect(result == Tool.Result(status: 64, stdout: "", stderr: "Error: \(message)\n" + Self.usage))
    }

    /// Every option that is checked when the command line is read, with a value that is fine.
    @Test func readsEveryOption() throws {
        let command = try ServeCommand(
            parsing: ParsedArguments(
                flags: ["no-implicit"],
                values: [
                    "tree": "t.json", "port": "9001", "bind": "127.0.0.1", "feedback-port": "auto", "root": "/inst1",
                    "name": "left", "touch-guard-ms": "50", "max-peers": "3", "rate-limit": "100", "max-frame": "4096",
                    "max-bundle-depth": "4", "presets": "/tmp/p", "state": "/tmp/s.json", "log-level": "debug",
                    "summary": "0.5", "max-presets": "12", "max-preset-bytes": "65536", "preset-save-rate": "5",
                ],
                repeatedValues: [
                    "allow": ["10.0.0.0/8", "::1"], "link": ["osc.udp://a:1/"], "link-one-way": ["osc.udp://b:2/"],
                ]))
        let configuration = command.configuration
        #expect(command.treePath == "t.json")
        #expect(configuration.port == 9001)
        #expect(configuration.bindHost == "127.0.0.1")
        #expect(configuration.allowList.description == "10.0.0.0/8, ::1/128")
        #expect(configuration.feedbackPort == .auto)
        #expect(configuration.root == "/inst1")
        #expect(configuration.name == "left")
        #expect(!configuration.implicitSubscriptions)
        #expect(configuration.touchGuardMilliseconds == 50)
        #expect(configuration.maxPeers == 3)
        #expect(configuration.rateLimit == 100)
        #expect(configuration.maxFrameLength == 4096)
        #expect(configuration.maxBundleDepth == 4)
        #expect(configuration.presetsDirectory == "/tmp/p")
        #expect(configuration.stateFile == "/tmp/s.json")
        let limits = configuration.presetLimits
        #expect([limits.maximumCount, limits.maximumBytes, limits.savesPerSecond] == [12, 65536, 5] as [Int])
        #expect(
            configuration.links.map { "\($0.url) \($0.twoWay)" } == ["osc.udp://a:1/ true", "osc.udp://b:2/ false"])
        #expect(command.logLevel == .debug)
        #expect(command.summaryInterval == 0.5)
    }

    /// Without options: the defaults of PROTOCOL.md.
    @Test func defaults() throws {
        let configuration = try ServeCommand(parsing: ParsedArguments()).configuration
        #expect(configuration.port == 8000)
        #expect(configuration.allowList == .privateRanges)
        #expect(configuration.feedbackPort == .fixed(9000))
        #expect(configuration.implicitSubscriptions)
        let limits = configuration.presetLimits
        #expect([limits.maximumCount, limits.maximumBytes] == [256, 67_108_864] as [Int])
        #expect([limits.savesPerSecond, limits.saveBurst] == [2, 10] as [Int])
    }

    @Test func allowAnyOpensTheList() throws {
        let arguments = ParsedArguments(repeatedValues: ["allow": ["any"]])
        #expect(try ServeCommand(parsing: arguments).configuration.allowList == .any)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func stopsCleanlyOnASignal(signal: Int32) throws {
        let (process, port) = try Self.start()
        #expect(port != 0)
        #expect(process.stderr.hasPrefix("\(Self.readyPrefix)\(port)\n"))
        #expect(Self.afterBanner(process.stderr).isEmpty)
        let status = signal == SIGINT ? process.interrupt() : process.terminate()
        #expect(status == 0)
        #expect(process.stdout == "")
    }

    @Test func portInUseIsARunTimeFailure() throws {
        let (first, port) = try Self.start()
        defer { first.stop() }
        let result = try Tool.knoblink("serve", "--port", "\(port)")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: could not listen on UDP and TCP port \(port): "))
        #expect(result.stderr.contains("Address already in use"))
        #expect(!result.stderr.contains("Usage:"))
    }

    @Test func badTreeFileIsARunTimeFailure() throws {
        let path = Self.temporaryPath("tree.json")
        try #"{"format":"knoblink-tree","version":1,"children":[{"kind":"group","identifier":"wave","children":[]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.knoblink("serve", "--port", "0", "--tree", path)
        let expected = "Error: \(path): 'wave': identifier 'wave' is reserved\n"
        #expect(result == Tool.Result(status: 1, stdout: "", stderr: expected))
    }

    @Test func servesATreeFile() throws {
        let path = TreeCommandTests.examples.appendingPathComponent("two-voices.json").path
        let (process, port) = try Self.start(["--tree", path])
        defer { process.stop() }
        let result = try Tool.knoblink("get", "127.0.0.1", "\(port)", "/master/tempo")
        #expect(result == Tool.Result(status: 0, stdout: "/master/tempo f 0.400000\n", stderr: ""))
    }

    @Test func stateFileIsWrittenOnSIGTERM() throws {
        let path = Self.temporaryPath("state.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, port) = try Self.start(["--state", path])
        #expect(try Tool.knoblink("send", "127.0.0.1", "\(port)", "/knob/gain", "f", "0.25").status == 0)
        // The set is applied once a query sent after it is answered.
        #expect(try Tool.knoblink("get", "127.0.0.1", "\(port)", "/knob/gain").stdout == "/knob/gain f 0.250000\n")
        #expect(process.terminate() == 0)
        let preset = try ParameterPreset(contentsOf: URL(fileURLWithPath: path))
        #expect(preset.values["knob.gain"] == -42)
        #expect(preset.values["knob.frequency"] == 440)
    }

    /// `--link` reaches the far instance both ways (the far side is started first, so that the
    /// request to link back is not sent before it listens).
    @Test func linkCarriesChangesBothWays() throws {
        let (far, farPort) = try Self.start(["--name", "far"])
        defer { far.stop() }
        let (near, nearPort) = try Self.start(["--name", "near", "--link", "osc.udp://127.0.0.1:\(farPort)/"])
        defer { near.stop() }
        #expect(try Tool.knoblink("send", "127.0.0.1", "\(nearPort)", "/knob/gain", "f", "0.25").status == 0)
        #expect(far.wait { _ in Self.value(farPort, "/knob/gain") == "/knob/gain f 0.250000\n" })
        #expect(try Tool.knoblink("send", "127.0.0.1", "\(farPort)", "/knob/pan", "f", "1").status == 0)
        #expect(near.wait { _ in Self.value(nearPort, "/knob/pan") == "/knob/pan f 1.000000\n" })
    }

    @Test func logsPeersWithALevelPrefix() throws {
        let (process, port) = try Self.start()
        defer { process.stop() }
        #expect(try Tool.knoblink("get", "--tcp", "127.0.0.1", "\(port)", "/knob/gain").status == 0)
        let logged = process.wait {
            $0.stderr.contains("info: peer tcp 127.0.0.1:") && $0.stderr.contains(" left: ")
        }
        #expect(logged, "\(process.stderr)")
        let lines = Self.afterBanner(process.stderr)
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("info: ") })
    }

    @Test func logLevelErrorLeavesOutInfo() throws {
        let (process, port) = try Self.start(["--log-level", "error", "--summary", "0.1"])
        #expect(try Tool.knoblink("get", "--tcp", "127.0.0.1", "\(port)", "/knob/gain").status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(process.terminate() == 0)
        #expect(process.stderr.hasPrefix("\(Self.readyPrefix)\(port)\n"))
        #expect(Self.afterBanner(process.stderr).isEmpty)
    }

    @Test func summarisesTrafficPeriodically() throws {
        let (process, port) = try Self.start(["--summary", "0.2"])
        defer { process.stop() }
        #expect(try Tool.knoblink("send", "127.0.0.1", "\(port)", "/knob/gain", "f", "0.5").status == 0)
        let summarised = process.wait { $0.stderr.contains(" messages in, ") }
        #expect(summarised, "\(process.stderr)")
        let line = process.stderr.split(separator: "\n").first { $0.contains(" messages in, ") } ?? ""
        #expect(line.hasPrefix("info: 1 peer, 1 subscriber, "), "\(line)")
        #expect(line.hasSuffix(" dropped"), "\(line)")
    }

    /// `Examples/scripts/server-demo.sh` runs the other server scripts against a server of its
    /// own: the examples the documentation shows keep working.
    @Test func exampleScriptsRunAgainstARealServer() throws {
        let scripts = TreeCommandTests.examples.deletingLastPathComponent().appendingPathComponent("scripts")
        let ports = try (0..<3).map { _ in try Peers.freePort() }
        let process = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "PORT=\(ports[0])", "FEEDBACK=\(ports[1])", "LISTEN=\(ports[2])", "KNOBLINK=\(Tool.knoblink.path)",
                "bash", scripts.appendingPathComponent("server-demo.sh").path,
            ])
        process.closeInput()
        // The scripts wait a moment after each message for the answers: some 15 seconds in all.
        #expect(process.waitForExit(timeout: .seconds(60)) == 0, "\(process.stderr)")
        let output = process.stdout
        for expected in [
            "Listening on UDP and TCP port \(ports[0])\n",
            "$ oscsend localhost \(ports[0]) /knob/gain f 1.7\n  /knob/gain f 1.000000\n",
            "  /knob/gain/str s \"-12 dB\"\n", "  /toggle/retrigger f 1.000000\n",
            "  /sys/error ss \"/knob/nope\" \"unknown address\"\n",
            // The default name: the machine's name and the port.
            "  /sys/pong ss \"\(ProcessInfo.processInfo.hostName):\(ports[0])\" \"0.1.0\"\n",
            "  /amp/attack/str s \"300ms\"\n", "  /sys/preset s \"Lead\"\n",
            "  /sys/error ss \"/sys/preset/load\" \"preset 'Missing': not found\"\n",
        ] {
            #expect(output.contains(expected), "missing \(expected) in \(output)")
        }
    }

    @Test func summaryLine() {
        let line = ServeSummary.line([
            ("peers", 2), ("subscribers", 1), ("messagesReceived", 1520), ("packetsSent", 3020), ("malformed", 3),
            ("rateLimited", 4), ("unknownAddress", 9),
        ])
        #expect(line == "2 peers, 1 subscriber, 1520 messages in, 3020 packets out, 7 dropped")
    }
}
