import Foundation

/// A real terminal emulator for tests: a tmux server of its own (`-L`, no configuration) with one
/// session of a fixed size that runs a shell command; keys and SGR mouse reports are typed with
/// `send-keys -l`, and the screen is read with `capture-pane -p` (`-e` for colours).
final class TmuxSession {
    let socket = "knoblink-test-\(UUID().uuidString.prefix(8))"
    private let tmux = Tool.system("tmux")

    /// Starts `command` (a shell command line) in a `width` × `height` window.
    init(_ command: String, width: Int = 80, height: Int = 24) throws {
        try run(["new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", command])
        // A detached session keeps the size given; without this a resize would follow no client.
        try run(["set-option", "-g", "window-size", "manual"])
    }

    deinit {
        // The pane's process group first (its shell and what the shell runs): `kill-server` alone
        // left `knoblink serve --surface` and its tmux server running after every test, because
        // the panes' commands end in `sleep` to keep the screen readable.
        if let pane = try? panePID() { kill(-pane, SIGKILL) }
        _ = try? run(["kill-server"])
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let result = try Tool.run(tmux, ["-L", socket, "-f", "/dev/null"] + arguments)
        return result.stdout
    }

    /// Types `text` as if from the keyboard (escape sequences included, byte for byte).
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "t", "-l", text])
    }

    /// An SGR mouse report at 1-based column `x`, row `y`: press (`M`), or release (`m`);
    /// `code` 32 + button is a motion with the button down, 64/65 the wheel.
    func mouse(_ code: Int, x: Int, y: Int, release: Bool = false) throws {
        try type("\u{1B}[<\(code);\(x);\(y)\(release ? "m" : "M")")
    }

    /// The screen's text, or with `colors` its SGR sequences too.
    func screen(colors: Bool = false) throws -> String {
        try run(["capture-pane", "-t", "t", "-p"] + (colors ? ["-e"] : []))
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The process id of the pane's shell.
    func panePID() throws -> Int32? {
        Int32(
            try run(["display-message", "-p", "-t", "t", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    /// Waits until the screen satisfies `condition`; false on timeout.
    func waitForScreen(timeout: Duration = .seconds(10), until condition: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let text = try? screen(), condition(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        return false
    }
}
