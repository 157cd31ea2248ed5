/// What the parser and the help need to know about one command.
struct CommandSpec: Sendable {
    /// The word that selects the command: `send`.
    var name: String
    /// One sentence, shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
    var abstract: String
    /// Paragraphs shown after the overview, or `nil`.
    var discussion: String?
    /// Usage lines written by hand, for commands whose positional arguments have more than one
    /// shape (`send HOST PORT …` and `send URL …`); `nil` derives the line from the arguments.
    var usage: [String]?
    /// The positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// The options, without `--help`, which every command gets.
    var options: [OptionSpec] = []
    /// After this many positional arguments every further token is a value, even one that
    /// starts with `-`, so that `send … /a s -x` sends the string `-x`. `nil` never stops.
    var optionsEndAfterPositionals: Int?

    /// The options including the help flag, in the order the help lists them.
    var allOptions: [OptionSpec] { options + [.help] }

    /// Finds an option by its long name.
    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }

    /// Finds an option by its short name.
    func option(short: Character) -> OptionSpec? {
        allOptions.first { $0.shortName == short }
    }
}
