import Controls
import Foundation
import TerminalUI

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
    func logDestination() throws(CommandFailure) -> FileHandle? {
        guard enabled else { return .standardError }
        guard let logFile else { return nil }
        // A file that cannot be created fails to open just below, with its name.
        if !FileManager.default.fileExists(atPath: logFile) {
            _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: logFile) else {
            throw CommandFailure("cannot open the log file '\(logFile)'")
        }
        handle.seekToEndOfFile()
        return handle
    }
}
