/// Splits the tokens of one command into options and positional arguments, following the
/// conventions of swift-argument-parser: `--name value`, `--name=value`, `-n value`, and `--`
/// to end the options.
enum CommandLineParser {
    /// Reads `tokens` (the words after the command's name) against `spec`.
    ///
    /// A help flag anywhere wins over every error, as in swift-argument-parser, so that
    /// `knoblink send --bogus --help` still shows the help.
    /// - Throws: ``UsageError`` for an unknown option or an option without its value.
    static func parse(_ tokens: [String], spec: CommandSpec) throws(UsageError) -> ParseOutcome {
        var parsed = ParsedArguments()
        var firstError: UsageError?
        var optionsEnded = false
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if optionsEnded || !looksLikeOption(token) {
                parsed.positionals.append(token)
                if let limit = spec.optionsEndAfterPositionals, parsed.positionals.count >= limit {
                    optionsEnded = true
                }
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = split(token)
            let found = name.hasPrefix("--") ? spec.option(named: String(name.dropFirst(2))) : shortOption(name, spec)
            guard let option = found else {
                firstError = firstError ?? .unknownOption(name)
                continue
            }
            if option.name == OptionSpec.help.name { return .help }
            if option.name == OptionSpec.version.name { return .version }
            guard option.valueName != nil else {
                if inlineValue != nil { firstError = firstError ?? .unexpectedValue(option: option.synopsis) }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < tokens.count {
                value = tokens[index]
                index += 1
            } else {
                firstError = firstError ?? .missingValue(option: option.synopsis)
                continue
            }
            parsed.values[option.name] = value
            if option.isRepeatable { parsed.repeatedValues[option.name, default: []].append(value) }
        }
        if let firstError { throw firstError }
        return .run(parsed)
    }

    /// Whether a token is an option rather than a value: `-` alone (standard input) and negative
    /// numbers (`-5`, `-.5`) are values.
    static func looksLikeOption(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        let second = token[token.index(after: token.startIndex)]
        return !(second.isASCII && (second.isNumber || second == "."))
    }

    private static func split(_ token: String) -> (name: String, value: String?) {
        guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }

    private static func shortOption(_ name: String, _ spec: CommandSpec) -> OptionSpec? {
        guard name.count == 2, let letter = name.last else { return nil }
        return spec.option(short: letter)
    }
}
