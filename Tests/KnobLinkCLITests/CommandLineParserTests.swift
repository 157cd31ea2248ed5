import Testing

@testable import KnobLinkCLI

@Suite struct CommandLineParserTests {
    static let spec = CommandSpec(
        name: "test",
        abstract: "A command for the tests.",
        arguments: [ArgumentSpec(name: "value", help: "Values.", isRepeating: true)],
        options: [.flag("tcp", help: "TCP."), .option("framing", short: "f", value: "framing", help: "Framing.")],
        optionsEndAfterPositionals: 2
    )

    private func parse(_ tokens: String...) throws(UsageError) -> ParseOutcome {
        try CommandLineParser.parse(tokens, spec: Self.spec)
    }

    private func run(flags: Set<String> = [], values: [String: String] = [:], _ positionals: [String]) -> ParseOutcome {
        .run(ParsedArguments(flags: flags, values: values, positionals: positionals))
    }

    @Test func optionValueSeparateOrAfterEquals() throws {
        #expect(try parse("--framing", "slip", "a") == run(values: ["framing": "slip"], ["a"]))
        #expect(try parse("--framing=slip", "a") == run(values: ["framing": "slip"], ["a"]))
        #expect(try parse("-f", "slip", "a") == run(values: ["framing": "slip"], ["a"]))
        #expect(try parse("--framing=", "a") == run(values: ["framing": ""], ["a"]))
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try parse("--tcp", "--", "--framing", "-x") == run(flags: ["tcp"], ["--framing", "-x"]))
    }

    @Test func optionsEndAfterTheConfiguredPositionals() throws {
        #expect(try parse("a", "--tcp", "b", "--tcp", "-x") == run(flags: ["tcp"], ["a", "b", "--tcp", "-x"]))
    }

    @Test func negativeNumbersAndDashAreValues() throws {
        #expect(try parse("-5", "-.5", "-") == run(["-5", "-.5", "-"]))
    }

    @Test func helpWinsOverEveryError() throws {
        #expect(try parse("--bogus", "--help") == .help)
        #expect(try parse("-h", "--framing") == .help)
    }

    @Test func errors() {
        #expect(throws: UsageError.unknownOption("--bogus")) { try parse("--bogus=1") }
        #expect(throws: UsageError.unknownOption("-fx")) { try parse("-fx") }
        #expect(throws: UsageError.missingValue(option: "--framing <framing>")) { try parse("--framing") }
        #expect(throws: UsageError.unexpectedValue(option: "--tcp")) { try parse("--tcp=1") }
        #expect(throws: UsageError.unknownOption("--version")) { try parse("--version") }
    }

    @Test func positionalReaderReportsMissingAndExtraArguments() throws {
        var reader = PositionalReader(["a", "b"])
        #expect(try reader.next("<one>") == "a")
        #expect(throws: UsageError.unexpectedArgument("b")) { try reader.finish() }
        #expect(reader.optional() == "b")
        #expect(throws: UsageError.missingArgument("<two>")) { try reader.next("<two>") }
    }

    @Test func wrapBreaksAtSpacesWithinTheWidth() {
        #expect(HelpFormatter.wrap("aa bb cc dd", width: 5) == ["aa bb", "cc dd"])
        #expect(HelpFormatter.wrap("toolongword x", width: 4) == ["toolongword", "x"])
    }

    @Test func longLabelsPutTheirHelpOnTheNextLine() {
        let spec = CommandSpec(
            name: "x", abstract: "X.",
            options: [.option("a-very-long-option-name", value: "value", help: "Help.")])
        let help = HelpFormatter.help(for: spec, path: "knoblink x")
        #expect(help.contains("  --a-very-long-option-name <value>\n                          Help.\n"))
    }
}
