import Foundation

/// A `knoblink serve` for the browser tests, on a port from port 0, killed when released.
final class ServeChild: Sendable {
    /// Where the test target's `knoblink` is: beside the test bundle, else in `.build/debug`.
    static let knoblink: URL = {
        let besideBundle = Bundle.main.bundleURL.appendingPathComponent("knoblink")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        return BrowserScript.packageRoot.appendingPathComponent(".build/debug/knoblink")
    }()

    /// The options every browser test's server runs with: replies go to the UDP peers' own ports.
    static let options = ["--feedback-port", "auto", "--no-zeroconf"]

    let port: UInt16
    let name: String
    let pid: Int32
    private let directory: URL

    /// Starts the server and waits (without blocking a thread) for its `Listening on … port N` line.
    init(timeout: Duration = .seconds(20)) async throws {
        name = "web-\(UUID().uuidString.prefix(8))"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-serve-\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let arguments = ["serve", "--port", "0", "--name", name] + Self.options
        let process = try ChildRun.start(Self.knoblink, arguments, in: directory)
        pid = process.processIdentifier
        let marker = "Listening on UDP and TCP port "
        let deadline = ContinuousClock.now + timeout
        var bound: UInt16?
        while bound == nil, ContinuousClock.now < deadline, process.isRunning {
            let stderr = (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
            bound = stderr.split(separator: "\n").first { $0.contains(marker) }.flatMap {
                UInt16($0.split(separator: " ").last ?? "")
            }
            if bound == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let bound else {
            kill(pid, SIGKILL)
            throw Failure.didNotStart(arguments.joined(separator: " "))
        }
        port = bound
    }

    enum Failure: Error {
        case didNotStart(String)
    }

    var url: String { "http://127.0.0.1:\(port)" }

    deinit {
        kill(pid, SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }
}
