/// The options and positional arguments of one command line, before the command interprets them.
struct ParsedArguments: Sendable, Equatable {
    /// The long names of the flags that were given.
    var flags: Set<String> = []
    /// The value of each option that was given; the last one wins when an option is repeated.
    var values: [String: String] = [:]
    /// The positional arguments, in order.
    var positionals: [String] = []
    /// Every value of each repeatable option, in order.
    var repeatedValues: [String: [String]] = [:]

    /// Whether the flag with this long name was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of the option with this long name, if it was given.
    func value(_ option: String) -> String? { values[option] }

    /// Every value given to a repeatable option, in order; empty if it was not given.
    func values(_ option: String) -> [String] { repeatedValues[option] ?? [] }
}
