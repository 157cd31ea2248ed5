import Controls
import TerminalUI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The options of `knoblink serve` for the terminal surface: `--surface`, `--log-file`,
/// `--theme`, `--theme-file`.
struct SurfaceOptions {
    var enabled = false
    var logFile: String?
    var colorScheme = ColorScheme.dark
    var themeFile: String?

    init() {}

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        enabled = arguments.has("surface")
        logFile = arguments.value("log-file")
        themeFile = arguments.value("theme-file")
        if let text = arguments.value("theme") {
            switch text {
            case "light": colorScheme = .light
            case "dark": colorScheme = .dark
            default: throw .invalidValue(text, for: "--theme <scheme>", reason: "expected light or dark")
            }
        }
    }

    /// Refuses a surface without a terminal to draw on.
    func checkTerminal() throws(CommandFailure) {
        guard RawTerminal.isInteractive else {
            throw CommandFailure(
                "--surface needs a terminal: standard input and standard output must both be a tty "
                    + "(run it in a terminal, or leave out --surface)")
        }
    }

    /// The theme: `--theme-file`'s colours if given, for `--theme`'s scheme.
    func loadTheme() throws(CommandFailure) -> Theme {
        guard let themeFile else { return Theme(colorScheme: colorScheme) }
        do {
            return try ThemeFile(contentsOfFile: themeFile).theme(colorScheme)
        } catch {
            throw CommandFailure("--theme-file \(themeFile): \(error)")
        }
    }

    /// Where the log goes: standard error without a surface; with one, the log file or nowhere.
    func logDestination() throws(CommandFailure) -> OutputFile? {
        guard enabled else { return .standardError }
        guard let logFile else { return nil }
        guard let handle = OutputFile(forWritingAtPath: logFile, append: true) else {
            throw CommandFailure("cannot open the log file '\(logFile)'")
        }
        return handle
    }
}
