/// Renders help and usage text in the layout of swift-argument-parser: sections `OVERVIEW:`,
/// `USAGE:`, `ARGUMENTS:`, `OPTIONS:`, `SUBCOMMANDS:`, labels indented by two spaces and help
/// text in a column that starts at 26, wrapped at 80 columns.
enum HelpFormatter {
    static let helpColumn = 26
    static let width = 80

    /// The usage lines of a command, without the `USAGE: ` or `Usage: ` in front.
    /// - Parameter path: the words that run the command, `knoblink send`.
    static func usageLines(for spec: CommandSpec, path: String, hasSubcommands: Bool = false) -> [String] {
        if let usage = spec.usage { return usage.map { "\(path) \($0)" } }
        if hasSubcommands { return ["\(path) <subcommand>"] }
        let options = spec.options.filter { $0.name != OptionSpec.version.name }.map { "[\($0.synopsis)]" }
        return [([path] + options + spec.arguments.map(\.synopsis)).joined(separator: " ")]
    }

    /// The full help text of a command, ending with a newline.
    static func help(for spec: CommandSpec, path: String, subcommands: [CommandSpec] = []) -> String {
        var sections = ["OVERVIEW: \(spec.abstract)"]
        if let discussion = spec.discussion { sections.append(reflow(discussion)) }
        let usage = usageLines(for: spec, path: path, hasSubcommands: !subcommands.isEmpty)
        sections.append("USAGE: " + usage.joined(separator: "\n       "))
        if !spec.arguments.isEmpty {
            sections.append(section("ARGUMENTS:", spec.arguments.map { ($0.label, $0.help) }))
        }
        sections.append(section("OPTIONS:", spec.allOptions.map { ($0.label, $0.helpWithDefault) }))
        if !subcommands.isEmpty {
            let rows = subcommands.map { ($0.name, $0.abstract) }
            sections.append(section("SUBCOMMANDS:", rows) + "\n\n  See '\(path) help <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The text printed on stderr for a usage error, ending with a newline.
    static func error(_ error: UsageError, spec: CommandSpec, path: String, hasSubcommands: Bool = false) -> String {
        let usage = usageLines(for: spec, path: path, hasSubcommands: hasSubcommands)
        return """
            Error: \(error.message)
            Usage: \(usage.joined(separator: "\n       "))
              See '\(path) --help' for more information.

            """
    }

    private static func section(_ title: String, _ rows: [(label: String, help: String)]) -> String {
        ([title] + rows.map { row($0.label, $0.help) }).joined(separator: "\n")
    }

    /// One label with its help: on the same line when the label leaves room, else below it.
    private static func row(_ label: String, _ help: String) -> String {
        let indented = "  " + label
        let lines = wrap(help, width: width - helpColumn)
        let pad = String(repeating: " ", count: helpColumn)
        let body = lines.enumerated().map { $0.offset == 0 ? $0.element : pad + $0.element }
        if indented.count < helpColumn {
            let first = indented + String(repeating: " ", count: helpColumn - indented.count)
            return first + body.joined(separator: "\n")
        }
        return indented + "\n" + pad + body.joined(separator: "\n")
    }

    /// Wraps each paragraph (separated by a blank line) of `text` at ``width``.
    static func reflow(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true)
            .map { wrap($0.split(separator: "\n").joined(separator: " "), width: width).joined(separator: "\n") }
            .joined(separator: "\n\n")
    }

    /// Breaks text into lines of at most `width` characters at spaces; a word longer than the
    /// width gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        return lines + [line]
    }
}
