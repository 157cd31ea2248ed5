/// One positional argument of a command, as the help shows it.
struct ArgumentSpec: Sendable {
    /// The name without its angle brackets: `port` is shown as `<port>`.
    var name: String
    /// One line of help.
    var help: String
    /// Whether the argument may be left out (shown as `[<name>]`).
    var isOptional: Bool = false
    /// Whether the argument takes all remaining values (shown as `[<name> ...]`).
    var isRepeating: Bool = false

    /// The name as the help and the errors show it: `<port>`.
    var label: String { "<\(name)>" }

    /// The argument as the usage line shows it.
    var synopsis: String {
        isRepeating ? "[\(label) ...]" : isOptional ? "[\(label)]" : label
    }
}
