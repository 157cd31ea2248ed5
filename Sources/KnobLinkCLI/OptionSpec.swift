/// One option of a command: a flag (`--tcp`) or an option that takes a value (`--framing slip`).
struct OptionSpec: Sendable {
    /// The long name without its dashes: `framing` for `--framing`.
    var name: String
    /// The one-letter short name without its dash, if any: `L` for `-L`.
    var shortName: Character?
    /// The placeholder of the value, or `nil` for a flag that takes none.
    var valueName: String?
    /// One line of help.
    var help: String
    /// Whether every occurrence is kept (`--allow A --allow B`), read with ``ParsedArguments/values(_:)``.
    var isRepeatable = false
    /// What the option is when it is not given, shown after the help as `(default: …)`. Written
    /// from the value the command uses (`String(describing: defaults.port)`), so that the help
    /// cannot drift from the code (issue 10: it said "every IPv4 interface" of a dual-stack bind).
    var defaultText: String?

    /// A flag that takes no value.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: short, valueName: nil, help: help)
    }

    /// An option followed by a value, given as `--name value` or `--name=value`.
    static func option(
        _ name: String, short: Character? = nil, value: String, repeatable: Bool = false, help: String,
        default defaultText: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, valueName: value, help: help, isRepeatable: repeatable,
            defaultText: defaultText)
    }

    /// The help with its default, as the OPTIONS section shows it.
    var helpWithDefault: String {
        defaultText.map { "\(help) (default: \($0))" } ?? help
    }

    /// The help flag every command has; parsing handles it before the command sees its arguments.
    static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")

    /// The version flag of the root command.
    static let version = OptionSpec.flag("version", help: "Show the version.")

    /// How the option is shown in the usage line and in errors: `--framing <framing>`.
    var synopsis: String {
        valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
    }

    /// How the option is shown in the OPTIONS section: `-h, --help`.
    var label: String {
        shortName.map { "-\($0), \(synopsis)" } ?? synopsis
    }
}
