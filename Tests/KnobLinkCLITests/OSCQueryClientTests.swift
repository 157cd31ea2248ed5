import Foundation
import Testing

/// `knoblink serve` read by OSCQuery clients of other projects (PROTOCOL.md section 9):
/// python-oscquery's `OSCQueryClient` over HTTP, and the `websockets` library's client for
/// LISTEN, IGNORE and binary OSC. Each check of `Peers/python/oscquery_clients.py` is a line.
@Suite(.offThePool) struct OSCQueryClientTests {
    static let script = PythonPeer.directory.appendingPathComponent("oscquery_clients.py").path
    /// The browser tests' venv has `websockets` (Scripts/install-deps.sh).
    /// (Built from the package's path, never "standardized": Foundation resolves the symlink
    /// then, and the interpreter it points at does not see the venv.)
    static let venvPython = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/venv-browser/bin/python")

    static func run(_ mode: String, python: URL) throws -> Tool.Result {
        let server = try ServeProcess(["--feedback-port", "auto", "--bind", "127.0.0.1"])
        defer { _ = server.terminate() }
        return try Tool.run(python, [script, "\(server.port)", mode])
    }

    @Test func pythonOSCQueryReadsTheLiveServer() throws {
        let result = try Self.run("oscquery", python: Tool.system("python3"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 4, "\(result.stdout)")
    }

    @Test func theWebsocketsLibraryListensAndSends() throws {
        let result = try Self.run("websocket", python: Self.venvPython)
        #expect(result.status == 0, "\(Self.venvPython.path): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 4, "\(result.stdout)")
    }
}
