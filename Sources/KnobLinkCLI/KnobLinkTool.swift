import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The `knoblink` command: picks the subcommand, handles help and version, prints errors and
/// chooses the exit status.
enum KnobLinkTool {
    static let name = "knoblink"
    static let version = "0.1.0"

    /// Exit statuses, as swift-argument-parser uses them.
    enum ExitStatus: Int32 {
        case success = 0
        case failure = 1
        case usage = 64
    }

    /// Every subcommand, in the order the help lists them.
    static let subcommands: [any RunnableCommand.Type] = [
        SendCommand.self,
        DumpCommand.self,
        ServeCommand.self,
        SurfaceCommand.self,
        GetCommand.self,
        TreeCommand.self,
        WaveformCommand.self,
    ]

    static let spec = CommandSpec(
        name: name,
        abstract: "Send, receive and inspect Open Sound Control messages.",
        options: [.version]
    )

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    static func main(_ arguments: [String]) -> ExitStatus {
        var tokens = arguments[...]
        guard let first = tokens.first, !CommandLineParser.looksLikeOption(first) else {
            return runRoot(Array(tokens))
        }
        tokens.removeFirst()
        if first == "help" { return runHelp(Array(tokens)) }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            return usageError(.unexpectedArgument(first), spec: spec, path: name, hasSubcommands: true)
        }
        return run(command, Array(tokens))
    }

    /// `knoblink`, `knoblink --help`, `knoblink --version`: there is nothing to run without a
    /// subcommand, so the help is the answer, as in swift-argument-parser.
    private static func runRoot(_ tokens: [String]) -> ExitStatus {
        do throws(UsageError) {
            switch try CommandLineParser.parse(tokens, spec: spec) {
            case .version:
                write("\(version)\n", to: .standardOutput)
                return .success
            case .help:
                break
            case .run(let parsed):
                if let extra = parsed.positionals.first { throw UsageError.unexpectedArgument(extra) }
            }
            write(rootHelp, to: .standardOutput)
            return .success
        } catch {
            return usageError(error, spec: spec, path: name, hasSubcommands: true)
        }
    }

    /// `knoblink help [<subcommand>]` prints what `--help` prints.
    private static func runHelp(_ tokens: [String]) -> ExitStatus {
        guard let wanted = tokens.first else {
            write(rootHelp, to: .standardOutput)
            return .success
        }
        guard let command = subcommands.first(where: { $0.name == wanted }) else {
            return usageError(.unknownSubcommand(wanted), spec: spec, path: name, hasSubcommands: true)
        }
        if let extra = tokens.dropFirst().first {
            return usageError(.unexpectedArgument(extra), spec: spec, path: name, hasSubcommands: true)
        }
        write(help(for: command), to: .standardOutput)
        return .success
    }

    private static func run(_ command: any RunnableCommand.Type, _ tokens: [String]) -> ExitStatus {
        let path = "\(name) \(command.spec.name)"
        do {
            switch try CommandLineParser.parse(tokens, spec: command.spec) {
            case .help:
                write(help(for: command), to: .standardOutput)
                return .success
            case .version:
                write("\(version)\n", to: .standardOutput)
                return .success
            case .run(let parsed):
                try command.init(parsing: parsed).run()
                return .success
            }
        } catch let error as UsageError {
            return usageError(error, spec: command.spec, path: path)
        } catch let failure as CommandFailure {
            write("Error: \(failure.message)\n", to: .standardError)
            return .failure
        } catch {
            write("Error: \(error)\n", to: .standardError)
            return .failure
        }
    }

    static var rootHelp: String {
        HelpFormatter.help(for: spec, path: name, subcommands: subcommands.map { $0.spec })
    }

    static func help(for command: any RunnableCommand.Type) -> String {
        HelpFormatter.help(for: command.spec, path: "\(name) \(command.spec.name)")
    }

    private static func usageError(
        _ error: UsageError,
        spec: CommandSpec,
        path: String,
        hasSubcommands: Bool = false
    ) -> ExitStatus {
        write(HelpFormatter.error(error, spec: spec, path: path, hasSubcommands: hasSubcommands), to: .standardError)
        return .usage
    }

    /// Writes a command's result on standard output, unbuffered.
    /// - Throws: ``CommandFailure`` naming `<stdout>` and the system's reason when it cannot
    ///   be written (`/dev/full`, a closed pipe), so that the exit status says the result is lost.
    static func writeResult(_ text: String) throws(CommandFailure) {
        do {
            try WaveformOutputFile(fileDescriptor: STDOUT_FILENO, name: "<stdout>").write(Array(text.utf8))
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Writes text unbuffered, so that nothing is lost when the process exits right after. A
    /// failure (standard error on `/dev/full`, a closed pipe) is dropped: a write that
    /// traps would crash on it, and there is nowhere left to report it.
    static func write(_ text: String, to handle: OutputFile) {
        try? handle.write(contentsOf: Array(text.utf8))
    }
}
