import Foundation
import Testing

/// `knoblink serve --state` and `--media-dir` that cannot work are refused at start with exit
/// status 1, the path and the system's reason, as `--presets` is; they once were taken and
/// failed when the state was first written, at shutdown, or at the first `/wave/load`.
@Suite(.offThePool) struct ServePathOptionTests {
    /// Each bad path with the reason printed.
    @Test(arguments: [
        ("--state", "DIR", "Is a directory"),
        ("--state", "DIR/missing/state.json", "No such file or directory"),
        ("--state", "FILE/state.json", "Not a directory"),
        ("--media-dir", "DIR/missing", "No such file or directory"),
        ("--media-dir", "FILE", "Not a directory"),
    ])
    func aPathThatCannotWorkIsRefusedAtStart(option: String, template: String, reason: String) throws {
        let scratch = try Scratch()
        let file = try scratch.write("file", "x")
        let path = template.replacingOccurrences(of: "DIR", with: scratch.directory.path)
            .replacingOccurrences(of: "FILE", with: file)
        let process = try RunningProcess(Tool.knoblink, ["serve", "--port", "0", "--bind", "127.0.0.1", option, path])
        let status = process.waitForExit(timeout: .seconds(5))
        #expect(status == 1, "the server started: \(process.stderr)")
        #expect(process.stderr == "Error: cannot use '\(path)' for \(option): \(reason)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["file"])
    }

    /// A directory where no file can be created (as root, whom permissions do not stop, /proc).
    @Test func anUnwritableStateDirectoryIsRefusedAtStart() throws {
        let path = "/proc/knoblink-state.json"
        let process = try RunningProcess(
            Tool.knoblink, ["serve", "--port", "0", "--bind", "127.0.0.1", "--state", path])
        #expect(process.waitForExit(timeout: .seconds(5)) == 1, "the server started: \(process.stderr)")
        #expect(process.stderr.hasPrefix("Error: cannot use '\(path)' for --state: "))
        #expect(process.stderr.split(separator: "\n").count == 1)
    }

    /// A state file that does not exist yet in a writable directory, and an existing media
    /// directory, are accepted: the server starts.
    @Test func goodPathsAreAccepted() throws {
        let scratch = try Scratch()
        let media = try scratch.subdirectory("media")
        let (server, port) = try ServeCommandTests.start(["--state", scratch.path("state.json"), "--media-dir", media])
        #expect(port != 0)
        #expect(server.terminate() == 0)
    }
}
