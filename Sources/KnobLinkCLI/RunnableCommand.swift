/// A subcommand of `knoblink`.
///
/// Adding one takes a type that conforms and a line in ``KnobLinkTool/subcommands``: the parser,
/// the help, `help <name>` and the error texts come from its ``spec``.
protocol RunnableCommand: Sendable {
    /// The subcommand's word (`serve`), which is also its spec's name: picking the subcommand
    /// reads only this, so that the specs of the others (their help texts) are never built.
    static var name: String { get }

    /// The name, help texts, arguments and options.
    static var spec: CommandSpec { get }

    /// Interprets the parsed command line.
    /// - Throws: ``UsageError`` when the arguments do not fit the command.
    init(parsing arguments: ParsedArguments) throws(UsageError)

    /// Does the work; returning means success.
    /// - Throws: ``CommandFailure`` for a failure at run time, such as a host that does not resolve,
    ///   or ``UsageError`` for input that only turns out to be wrong once the command reads it.
    func run() throws
}
