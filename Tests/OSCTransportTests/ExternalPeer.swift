import Foundation

/// A peer program (python-osc, liblo's `oscsend`) run as a child process, waited on without
/// blocking a thread of the Swift concurrency pool.
struct ExternalPeer {
    let process = Process()
    let output: URL

    init(_ executable: String, _ arguments: [String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-peer-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
    }

    static func python(_ script: String, _ arguments: [String] = []) throws -> ExternalPeer {
        try ExternalPeer("python3", ["-c", script] + arguments)
    }

    var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Waits until the output holds a line, and returns the first one.
    func firstLine(within seconds: Double = 10) async -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let line = text.split(separator: "\n").first, text.contains("\n") { return String(line) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Waits for the process to end; returns its status, or `nil` (after killing it) on time-out.
    func finished(within seconds: Double = 10) async -> Int32? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

}
