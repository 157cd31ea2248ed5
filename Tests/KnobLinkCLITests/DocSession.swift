import Foundation
import Testing

/// Runs the marked examples of one Markdown file (``DocExample``) against a default
/// `knoblink serve` of their own, as a reader would type them in a few terminals.
///
/// The server listens on 127.0.0.1 at a free port, with replies at another free port; the
/// commands are rewritten before they run and their output after: the doc's ports (8000 for
/// the server, 9000 for its feedback, any other of 8000–9999 for a listener of the example's
/// own) become free ones and back, `localhost` becomes 127.0.0.1 (the server is not on `::1`),
/// and every time tag reads `xxxxxxxx.xxxxxxxx`. Commands run in bash in a temporary directory
/// that holds `Docs`, `Examples` and `Scripts` of the package, with `knoblink` first on `PATH`.
final class DocSession {
    private let server: RunningProcess
    private let directory: URL
    /// Ports of the doc, and the free ones used instead.
    private var ports: [UInt16: UInt16]
    private var background: [RunningProcess] = []
    /// How many lines of each background program's output earlier commands took.
    private var consumed: [Int] = []
    /// When the last command that shows a `/sys/error` ran.
    private var lastError: ContinuousClock.Instant?

    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    init() throws {
        let feedback = try Peers.freePort()
        server = try RunningProcess(
            Tool.knoblink,
            ["serve", "--port", "0", "--bind", "127.0.0.1", "--feedback-port", "\(feedback)", "--no-zeroconf"])
        let ready = server.wait(timeout: .seconds(10)) { $0.stderr.contains("Ctrl-C") }
        try #require(ready, "knoblink serve did not start: \(server.stderr)")
        let readyLine = server.stderr.split(separator: "\n").first ?? ""
        let port = try #require(UInt16(readyLine.split(separator: " ").last ?? ""))
        ports = [8000: port, 9000: feedback]
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-doctest-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["Docs", "Examples", "Scripts"] {
            try FileManager.default.createSymbolicLink(
                at: directory.appendingPathComponent(name),
                withDestinationURL: Self.packageRoot.appendingPathComponent(name))
        }
    }

    deinit {
        for process in background { process.stop() }
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one example; returns a description of each difference from what the doc shows.
    func run(_ example: DocExample) throws -> [String] {
        switch example.kind {
        case .skip: return []
        case .background:
            for step in example.steps { try start(step.command) }
            return []
        case .output:
            let expected = example.steps.first?.expected ?? []
            let actual = waitForListeners(own: [], expected: expected)
            guard !DocExample.matches(actual, expected.map { normalised($0).joined() }) else { return [] }
            return [
                "\(example): the listener printed\n\(actual.joined(separator: "\n"))\nbut the doc shows\n"
                    + expected.joined(separator: "\n")
            ]
        case .session:
            return try example.steps.compactMap { step in try session(example, step) }
        }
    }

    /// Runs one command of a session; a command that ends in `&` keeps running in the
    /// background, and what it prints later counts as the output of the commands after it, as
    /// in a terminal.
    private func session(_ example: DocExample, _ step: DocExample.Step) throws -> String? {
        if step.command.hasSuffix(" &") {
            try start(String(step.command.dropLast(2)))
            return nil
        }
        // A peer gets at most one /sys/error a second; a reader types slower than that.
        if step.expected?.contains(where: { $0.contains("/sys/error") }) == true {
            if let lastError { Thread.sleep(forTimeInterval: max(0, (lastError + .milliseconds(1100) - .now).seconds)) }
            lastError = .now
        }
        let process = try RunningProcess(Tool.system("bash"), ["-c", prelude + command(step.command)])
        process.closeInput()
        let status = process.waitForExit(timeout: .seconds(30))
        let own = normalised(process.stdout + process.stderr)
        guard let expected = step.expected else {
            let actual = own
            return status == 0
                ? nil
                : "\(example): the script failed (status \(status.map(String.init) ?? "none")):\n"
                    + actual.joined(separator: "\n")
        }
        let actual = waitForListeners(own: own, expected: expected, timeTags: example.showsTimeTags)
        guard !DocExample.matches(actual, expected.map { normalised($0).joined() }) else { return nil }
        return "\(example): `\(step.command)` printed\n\(actual.joined(separator: "\n"))\nbut the doc shows\n"
            + expected.joined(separator: "\n")
    }

    private func start(_ text: String) throws {
        // In a terminal, oscdump writes each line at once; into a pipe only with -L.
        let text = text.hasPrefix("oscdump ") && !text.contains(" -L") ? "oscdump -L " + text.dropFirst(8) : text
        background.append(try RunningProcess(Tool.system("bash"), ["-c", "\(prelude)exec env \(command(text))"]))
        consumed.append(0)
        // Listeners print nothing when ready: give them the time to bind.
        Thread.sleep(forTimeInterval: 0.5)
    }

    /// `own` followed by the background programs' new lines, once that is what the doc shows or
    /// after 5 seconds; the new lines count as seen either way.
    private func waitForListeners(own: [String], expected: [String], timeTags: Bool = true) -> [String] {
        let shown = expected.map { normalised($0).joined() }
        var actual = own
        let deadline = ContinuousClock.now + .seconds(background.isEmpty ? 0 : 5)
        while true {
            let printed = background.map { normalised($0.stdout) }
            let heard = zip(printed, consumed).flatMap { lines, taken in lines.dropFirst(taken) }
            actual = own + (timeTags ? heard : heard.map { Self.withoutTimeTag($0) })
            if DocExample.matches(actual, shown) || ContinuousClock.now >= deadline {
                consumed = printed.map(\.count)
                return actual
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private var prelude: String {
        "cd '\(directory.path)' && export PATH='\(Tool.knoblink.deletingLastPathComponent().path)':\"$PATH\" && "
    }

    /// The command with the doc's ports replaced by the session's, and `localhost` by 127.0.0.1.
    private func command(_ text: String) throws -> String {
        var result = text.replacingOccurrences(of: "localhost", with: "127.0.0.1")
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == ".") }
        for word in words where word.count == 4 && (word.first == "8" || word.first == "9") {
            guard let port = UInt16(word), ports[port] == nil else { continue }
            ports[port] = try Peers.freePort()
        }
        for (shown, real) in ports {
            result = Self.replacingPort(shown, with: real, in: result)
        }
        return result
    }

    /// Output lines with the session's ports shown as the doc's, and time tags blanked.
    private func normalised(_ text: String) -> [String] {
        var result = text
        for (shown, real) in ports { result = Self.replacingPort(real, with: shown, in: result) }
        result = result.replacingOccurrences(
            of: "\\b[0-9a-f]{8}\\.[0-9a-f]{8}\\b", with: "xxxxxxxx.xxxxxxxx", options: .regularExpression)
        var lines = result.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A dump line without the time tag in front, as normalised.
    private static func withoutTimeTag(_ line: String) -> String {
        line.hasPrefix("xxxxxxxx.xxxxxxxx ") ? String(line.dropFirst(18)) : line
    }

    private static func replacingPort(_ port: UInt16, with other: UInt16, in text: String) -> String {
        let pattern = "(?<![0-9A-Za-z.])\(port)(?![0-9A-Za-z.])"
        return text.replacingOccurrences(of: pattern, with: "\(other)", options: .regularExpression)
    }
}
