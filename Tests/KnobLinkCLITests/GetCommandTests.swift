import CLibLO
import Foundation
import OSCCore
import Testing

@testable import KnobLinkCLI

/// `knoblink get`: its help and usage errors byte for byte, answers from a real `knoblink serve`
/// over UDP and TCP, `/sys/error` answers, and the timeout against a port that never answers.
@Suite(.offThePool) struct GetCommandTests {
    static let help = """
        OVERVIEW: Ask a KnobLink server for a parameter's value.

        Sends ADDRESS/get to the server with a reply URL of this command's own socket
        (on port 0), and prints the answer as 'knoblink dump' prints a message, without
        the time tag: /knob/gain f 0.500000. Every facet reads the same way:
        /knob/gain/raw (in the parameter's units), /knob/gain/str (as text) and
        /knob/gain/info (its description). Over TCP the answer comes back on the
        connection. A /sys/error answer (a KnobLink server sends it to the reply URL
        too) is printed on standard error, and so is a missing answer; the exit status
        is then 1.

        USAGE: knoblink get [<options>] <host> <port> <address>
               knoblink get [<options>] <url> <address>

        ARGUMENTS:
          <host>                  The server's host name or IP address.
          <port>                  The server's port.
          <url>                   The server as osc.udp://host:port/ or
                                  osc.tcp://host:port/.
          <address>               The parameter's OSC address, such as /knob/gain or
                                  /knob/gain/str.

        OPTIONS:
          --timeout <seconds>     How long to wait for the answer. (default: 2)
          --tcp                   Ask over TCP instead of UDP.
          -h, --help              Show help information.

        """

    static let usage = """
        Usage: knoblink get [<options>] <host> <port> <address>
               knoblink get [<options>] <url> <address>
          See 'knoblink get --help' for more information.

        """

    @Test(arguments: [["get", "--help"], ["get", "-h"], ["help", "get"], ["get", "--timeout", "x", "-h"]])
    func help(arguments: [String]) throws {
        #expect(try Tool.run(Tool.knoblink, arguments) == Tool.Result(status: 0, stdout: Self.help, stderr: ""))
    }

    @Test(arguments: [
        ([], "Missing expected argument '<host>'"),
        (["127.0.0.1"], "Missing expected argument '<port>'"),
        (["127.0.0.1", "8000"], "Missing expected argument '<address>'"),
        (["osc.udp://127.0.0.1:8000/"], "Missing expected argument '<address>'"),
        (["127.0.0.1", "8000", "/a", "/b"], "Unexpected argument '/b'"),
        (["127.0.0.1", "0", "/a"], "The value '0' is invalid for '<port>': expected a number from 1 to 65535"),
        (["127.0.0.1", "8000", "a"], "The value 'a' is invalid for '<address>': an OSC address starts with '/'"),
        (
            ["ftp://h:1", "/a"],
            "The value 'ftp://h:1' is invalid for '<url>': scheme 'ftp' is not osc.udp or osc.tcp"
        ),
        (
            ["--timeout", "0", "h", "1", "/a"],
            "The value '0' is invalid for '--timeout <seconds>': expected a positive number of seconds"
        ),
        (
            ["--timeout=nan", "h", "1", "/a"],
            "The value 'nan' is invalid for '--timeout <seconds>': expected a positive number of seconds"
        ),
        (["--bogus", "h", "1", "/a"], "Unknown option '--bogus'"),
        (["--tcp=1", "h", "1", "/a"], "The option '--tcp' does not take a value"),
    ])
    func usageError(arguments: [String], message: String) throws {
        let result = try Tool.run(Tool.knoblink, ["get"] + arguments)
        #expect(result == Tool.Result(status: 64, stdout: "", stderr: "Error: \(message)\n" + Self.usage))
    }

    /// The default tree's values as `P/get` sends them (normalised), over each way of asking.
    @Test(arguments: [
        (["127.0.0.1", "PORT", "/knob/gain"], "/knob/gain f 0.833333\n"),
        (["--tcp", "127.0.0.1", "PORT", "/knob/gain"], "/knob/gain f 0.833333\n"),
        (["osc.udp://localhost:PORT/", "/toggle/retrigger"], "/toggle/retrigger f 0.000000\n"),
        (["osc.tcp://127.0.0.1:PORT/", "/amp/sustain"], "/amp/sustain f 0.800000\n"),
        (["localhost", "PORT", "/knob/frequency"], "/knob/frequency f 0.076858\n"),
    ])
    func printsTheAnswerOfARealServer(arguments: [String], expected: String) throws {
        let (server, port) = try ServeCommandTests.start()
        defer { server.stop() }
        let filled = arguments.map { $0.replacingOccurrences(of: "PORT", with: "\(port)") }
        let result = try Tool.run(Tool.knoblink, ["get"] + filled)
        #expect(result == Tool.Result(status: 0, stdout: expected, stderr: ""))
    }

    /// An IPv6 target gets an IPv6 reply URL (`osc.udp://[::1]:PORT/`).
    @Test func asksOverIPv6() throws {
        let (server, port) = try ServeCommandTests.start(["--bind", "::"])
        defer { server.stop() }
        let result = try Tool.knoblink("get", "osc.udp://[::1]:\(port)/", "/knob/pan")
        #expect(result == Tool.Result(status: 0, stdout: "/knob/pan f 0.500000\n", stderr: ""))
        #expect(server.wait { $0.stderr.contains("info: peer udp [::1]:9000 subscribed implicitly\n") })
    }

    /// Every facet reads as a value does, over UDP and TCP (`/raw`, `/str` and `/info` were
    /// unknown addresses: `/knob/gain/str/get`), one line in `dump`'s words.
    @Test(arguments: [
        ("/knob/gain/raw", "/knob/gain/raw f 0.000000\n"),
        ("/knob/frequency/raw", "/knob/frequency/raw f 440.000000\n"),
        ("/knob/gain/str", "/knob/gain/str s \"0 dB\"\n"),
        ("/knob/frequency/str", "/knob/frequency/str s \"440 Hz\"\n"),
        (
            "/knob/gain/info",
            "/knob/gain/info ssfffsi \"Gain\" \"dB\" -60.000000 12.000000 0.000000 \"linear\" -1040187392\n"
        ),
    ])
    func readsEveryFacet(address: String, expected: String) throws {
        let (server, port) = try ServeCommandTests.start()
        defer { server.stop() }
        for options in [[], ["--tcp"]] {
            let result = try Tool.run(Tool.knoblink, ["get"] + options + ["127.0.0.1", "\(port)", address])
            #expect(result == Tool.Result(status: 0, stdout: expected, stderr: ""), "\(options)")
        }
    }

    /// An answer that cannot be written is a failure naming standard output.
    @Test func aFullStandardOutputIsAFailure() throws {
        let (server, port) = try ServeCommandTests.start()
        defer { server.stop() }
        let command = "exec '\(Tool.knoblink.path)' get 127.0.0.1 \(port) /knob/gain > /dev/full"
        let result = try Tool.run(Tool.system("sh"), ["-c", command])
        #expect(
            result
                == Tool.Result(
                    status: 1, stdout: "", stderr: "Error: cannot write '<stdout>': No space left on device (write)\n"))
    }

    @Test func printsAValueSetBefore() throws {
        let (server, port) = try ServeCommandTests.start()
        defer { server.stop() }
        #expect(try Tool.knoblink("send", "127.0.0.1", "\(port)", "/knob/gain/raw", "f", "-6").status == 0)
        let result = try Tool.knoblink("get", "127.0.0.1", "\(port)", "/knob/gain")
        #expect(result == Tool.Result(status: 0, stdout: "/knob/gain f 0.750000\n", stderr: ""))
    }

    /// `/sys/error` reaches `get`, which prints it on standard error: over TCP on the connection,
    /// and over UDP at the request's reply url, whatever the server's feedback port (the default
    /// fixed 9000 included).
    @Test(arguments: [(["--tcp"], [String]()), ([], ["--feedback-port", "auto"]), ([], [])])
    func reportsSysError(getOptions: [String], serveOptions: [String]) throws {
        let (server, port) = try ServeCommandTests.start(serveOptions)
        defer { server.stop() }
        let result = try Tool.run(Tool.knoblink, ["get"] + getOptions + ["127.0.0.1", "\(port)", "/knob/nope"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: /knob/nope/get: unknown address\n")
    }

    /// Errors are limited to one a second per reply address, and each `get` has its own: two in
    /// a row from one machine are both answered (with the fixed feedback port both would count
    /// against IP:9000, and the second would be suppressed).
    @Test func reportsSysErrorTwiceInARow() throws {
        let (server, port) = try ServeCommandTests.start()
        defer { server.stop() }
        for address in ["/knob/nope", "/knob/gain/nope"] {
            let result = try Tool.knoblink("get", "127.0.0.1", "\(port)", address)
            #expect(result == Tool.Result(status: 1, stdout: "", stderr: "Error: \(address)/get: unknown address\n"))
        }
    }

    @Test func timesOutAgainstASilentPort() throws {
        // A bound socket that never answers: datagrams to it are simply kept.
        let silent = try #require(lo_server_new_with_proto(nil, LO_UDP, nil))
        defer { lo_server_free(silent) }
        let port = lo_server_get_port(silent)
        let started = ContinuousClock.now
        let result = try Tool.knoblink("get", "--timeout", "0.3", "127.0.0.1", "\(port)", "/knob/gain")
        let elapsed = ContinuousClock.now - started
        let expected = "Error: no answer from osc.udp://127.0.0.1:\(port)/ within 0.3 s\n"
        #expect(result == Tool.Result(status: 1, stdout: "", stderr: expected))
        #expect(elapsed >= .milliseconds(300))
    }

    @Test func tcpRefusedIsARunTimeFailure() throws {
        let port = try Peers.freePort(tcp: true)
        let result = try Tool.knoblink("get", "--tcp", "127.0.0.1", "\(port)", "/knob/gain")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: could not connect to 127.0.0.1:\(port): "), "\(result.stderr)")
    }

    /// The answer is the first message at the address or the first `/sys/error`, wherever it is
    /// in a packet; a subscription's values and brackets around it change nothing.
    @Test func answerIsFoundInBundlesAndAmongOtherMessages() {
        typealias State = GetExchange.Answer.State
        let update = OSCMessage("/sys/update", [.int32(1)])
        let value = OSCMessage("/knob/gain", [.float32(0.5)])
        let bundle = OSCPacket.bundle(OSCBundle(timeTag: .immediately, [.message(update), .message(value)]))
        #expect(GetExchange.Answer.messages(in: bundle) == [update, value])
        let afterBundle = [update, value].reduce(State.waiting(inUpdate: false)) {
            $0.next(after: $1, to: "/knob/gain")
        }
        #expect(afterBundle == .answered(value))
        #expect(State.waiting(inUpdate: false).next(after: update, to: "/knob/gain") == .waiting(inUpdate: true))
        let error = OSCMessage("/sys/error", [.string("/knob/nope"), .string("unknown address")])
        #expect(State.waiting(inUpdate: true).next(after: error, to: "/knob/gain") == .answered(error))
        #expect(State.answered(value).next(after: error, to: "/knob/gain") == .answered(value))
    }

    /// An `/info` in parts between update brackets is merged: the fixed fields once, then every
    /// part's value strings.
    @Test func infoInPartsIsMerged() {
        let fixed: [OSCArgument] = [
            .string("Choice"), .string("indexed"), .float32(0), .float32(2), .float32(0), .string("linear"),
            .int32(7),
        ]
        let parts = [
            OSCMessage("/sys/update", [.int32(1)]), OSCMessage("/choice/info", fixed + [.string("a"), .string("b")]),
            OSCMessage("/choice", [.float32(0)]), OSCMessage("/choice/info", fixed + [.string("c")]),
            OSCMessage("/sys/update", [.int32(0)]),
        ]
        var state = GetExchange.Answer.State.waiting(inUpdate: false)
        for part in parts { state = state.next(after: part, to: "/choice/info") }
        #expect(state == .answered(OSCMessage("/choice/info", fixed + [.string("a"), .string("b"), .string("c")])))
    }

    /// A real server's `/info` with 1000 value strings, too large for one datagram, is printed
    /// whole on one line (the first part alone was printed).
    @Test(arguments: [[], ["--tcp"]])
    func readsAnInfoInSeveralParts(options: [String]) throws {
        let scratch = try Scratch()
        let (tree, names) = try ServerFacetTests.indexedTree(in: scratch)
        let (server, port) = try ServeCommandTests.start(["--tree", tree])
        defer { server.stop() }
        let result = try Tool.run(Tool.knoblink, ["get"] + options + ["127.0.0.1", "\(port)", "/choice/info"])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = "ssfffsi" + String(repeating: "s", count: 1000)
        let strings = names.map { "\"\($0)\"" }.joined(separator: " ")
        #expect(
            result.stdout.hasPrefix(
                "/choice/info \(tags) \"Choice\" \"indexed\" 0.000000 999.000000 0.000000 \"linear\" "))
        #expect(result.stdout.hasSuffix(" \(strings)\n"))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }

    @Test func linesAndErrorTexts() {
        #expect(GetCommand.line(of: OSCMessage("/knob/gain", [.float32(0.5)])) == "/knob/gain f 0.500000\n")
        #expect(GetCommand.line(of: OSCMessage("/a/str", [.string("-6 dB")])) == "/a/str s \"-6 dB\"\n")
        let error = OSCMessage("/sys/error", [.string("/knob/nope/get"), .string("unknown address")])
        #expect(GetCommand.errorText(error) == "/knob/nope/get: unknown address")
        #expect(GetCommand.errorText(OSCMessage("/sys/error", [.int32(3)])) == "the server answered /sys/error i 3")
    }
}
