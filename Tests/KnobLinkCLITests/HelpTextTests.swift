import Testing

/// Runs the built `knoblink` and compares its help and error texts byte for byte, with the
/// conventions of swift-argument-parser: help on stdout with status 0, errors on stderr with
/// status 64.
@Suite(.offThePool) struct HelpTextTests {
    @Test(arguments: [["--help"], ["-h"], ["help"], []])
    func rootHelp(arguments: [String]) throws {
        let result = try Tool.run(Tool.knoblink, arguments)
        #expect(result == Tool.Result(status: 0, stdout: HelpFixtures.root, stderr: ""))
    }

    @Test(arguments: [
        (["send", "--help"], HelpFixtures.send), (["send", "-h"], HelpFixtures.send),
        (["help", "send"], HelpFixtures.send), (["send", "h", "1", "--help", "/a"], HelpFixtures.send),
        (["dump", "--help"], HelpFixtures.dump), (["dump", "-h"], HelpFixtures.dump),
        (["help", "dump"], HelpFixtures.dump), (["dump", "--bogus", "-h"], HelpFixtures.dump),
    ])
    func subcommandHelp(arguments: [String], expected: String) throws {
        let result = try Tool.run(Tool.knoblink, arguments)
        #expect(result == Tool.Result(status: 0, stdout: expected, stderr: ""))
    }

    @Test func version() throws {
        #expect(try Tool.knoblink("--version") == Tool.Result(status: 0, stdout: "0.1.0\n", stderr: ""))
    }

    static let sendUsage = """
        Usage: knoblink send [<options>] <host> <port> <address> [<types>] [<values> ...]
               knoblink send [<options>] <url> <address> [<types>] [<values> ...]
          See 'knoblink send --help' for more information.

        """

    static let dumpUsage = """
        Usage: knoblink dump [--tcp] [--hex] [--raw] [--no-delay] [--line-buffered] <port>
          See 'knoblink dump --help' for more information.

        """

    static let rootUsage = """
        Usage: knoblink <subcommand>
          See 'knoblink --help' for more information.

        """

    @Test(arguments: [
        (["send", "--bogus", "h", "1", "/a"], "Unknown option '--bogus'", sendUsage),
        (["send", "--bogus=3", "h", "1", "/a"], "Unknown option '--bogus'", sendUsage),
        (["send", "-x", "h", "1", "/a"], "Unknown option '-x'", sendUsage),
        (["send"], "Missing expected argument '<host>'", sendUsage),
        (["send", "localhost", "9000"], "Missing expected argument '<address>'", sendUsage),
        (["send", "--framing"], "Missing value for '--framing <framing>'", sendUsage),
        (["send", "--tcp=yes", "h", "1", "/a"], "The option '--tcp' does not take a value", sendUsage),
        (
            ["send", "--framing=x", "h", "1", "/a"],
            "The value 'x' is invalid for '--framing <framing>': expected 'length' or 'slip'", sendUsage
        ),
        (
            ["send", "h", "0", "/a"], "The value '0' is invalid for '<port>': expected a number from 1 to 65535",
            sendUsage
        ),
        (
            ["send", "h", "1", "a"], "The value 'a' is invalid for '<address>': an OSC address starts with '/'",
            sendUsage
        ),
        (
            ["send", "ftp://h:1", "/a"],
            "The value 'ftp://h:1' is invalid for '<url>': scheme 'ftp' is not osc.udp or osc.tcp", sendUsage
        ),
        (
            ["send", "h", "1", "/a", "i", "0x10"],
            "The value '0x10' is invalid for type 'i' (value #1): expected a 32-bit decimal integer", sendUsage
        ),
        (["send", "h", "1", "/a", "if", "1"], "Missing value #2 for type 'f'", sendUsage),
        (["send", "h", "1", "/a", "i", "1", "2"], "Unexpected argument '2'", sendUsage),
        (
            ["send", "h", "1", "/a", "x", "1"],
            "Type 'x' is not supported (supported: i h f d s S c m t b r T F N I [ ])", sendUsage
        ),
        (["send", "h", "1", "-", "extra"], "Unexpected argument 'extra'", sendUsage),
        (["dump"], "Missing expected argument '<port>'", dumpUsage),
        (["dump", "1", "2"], "Unexpected argument '2'", dumpUsage),
        (
            ["dump", "x"], "The value 'x' is invalid for '<port>': expected a number from 0 to 65535 or a URL",
            dumpUsage
        ),
        (["dump", "-x", "1"], "Unknown option '-x'", dumpUsage),
        (["bogus"], "Unexpected argument 'bogus'", rootUsage),
        (["--bogus"], "Unknown option '--bogus'", rootUsage),
        (["help", "bogus"], "Unknown subcommand 'bogus'", rootUsage),
    ])
    func usageError(arguments: [String], message: String, usage: String) throws {
        let result = try Tool.run(Tool.knoblink, arguments)
        #expect(result == Tool.Result(status: 64, stdout: "", stderr: "Error: \(message)\n" + usage))
    }

    /// A failure at run time is not a usage error: status 1 and no usage.
    @Test func runTimeFailureExitsWithOne() throws {
        let result = try Tool.knoblink("send", "file:///no-such-directory/x.osc", "/a")
        #expect(
            result == Tool.Result(status: 1, stdout: "", stderr: "Error: could not create /no-such-directory/x.osc\n"))
    }

    @Test func badLineOfStandardInputNamesTheLine() throws {
        let result = try Tool.run(Tool.knoblink, ["send", "127.0.0.1", "9", "-"], input: "/a i 1\n\n/b i x\n")
        #expect(
            result
                == Tool.Result(
                    status: 1, stdout: "",
                    stderr:
                        "Error: standard input, line 3: The value 'x' is invalid for type 'i' (value #1): "
                        + "expected a 32-bit decimal integer\n"))
    }
}
