/// What a command line asks for once its options are read.
enum ParseOutcome: Sendable, Equatable {
    /// `-h` or `--help` was given: print the help and exit 0, whatever else is on the line.
    case help
    /// `--version` was given.
    case version
    /// Run the command with these arguments.
    case run(ParsedArguments)
}
