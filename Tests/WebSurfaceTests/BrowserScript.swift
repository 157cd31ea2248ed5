import Foundation
import Testing

/// The python selenium scripts of `browser/`, run to their end with a deadline.
///
/// The wait is asynchronous (the process's termination handler feeds a stream), so a browser
/// test holds no thread of the cooperative pool while Chromium works.
enum BrowserScript {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("browser")
    static let packageRoot = directory.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The outcome of a script.
    struct Output {
        var status: Int32?
        var stdout: String
        var stderr: String
    }

    /// The venv that `Scripts/install-deps.sh` fills with selenium, else python3 from `PATH`.
    static var python: URL {
        let venv = packageRoot.appendingPathComponent(".build/venv-browser/bin/python")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
        return URL(fileURLWithPath: "/usr/bin/env")
    }

    /// Runs `browser/SCRIPT ARGUMENTS`; a script still running after `timeout` is killed (status nil).
    static func run(_ script: String, _ arguments: [String], timeout: Duration = .seconds(60)) async throws -> Output {
        let path = directory.appendingPathComponent(script).path
        let command = python.lastPathComponent == "env" ? ["python3", "-u", path] : ["-u", path]
        return try await ChildRun.run(python, command + arguments, timeout: timeout)
    }

    /// A message for a failed script: its status and what it wrote.
    static func describe(_ output: Output) -> String {
        "status \(output.status.map(String.init) ?? "killed (timeout)")\n\(output.stdout)\n\(output.stderr)"
            + "\n(the browser tests need Scripts/install-deps.sh: chromium, chromium-driver and selenium)"
    }
}

/// A child process whose output goes to files, awaited without blocking a thread.
enum ChildRun {
    static func run(_ executable: URL, _ arguments: [String], timeout: Duration) async throws -> BrowserScript.Output {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "knoblink-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try start(executable, arguments, in: directory)
        let status = await exitStatus(of: process, timeout: timeout)
        func read(_ name: String) -> String {
            (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        return BrowserScript.Output(status: status, stdout: read("stdout"), stderr: read("stderr"))
    }

    /// Starts a process with stdout and stderr in files of `directory`.
    static func start(_ executable: URL, _ arguments: [String], in directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = BrowserScript.packageRoot
        for name in ["stdout", "stderr"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil)
        }
        let output = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout"))
        let errors = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr"))
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        defer {
            try? output.close()
            try? errors.close()
        }
        try process.run()
        return process
    }

    /// The exit status, or `nil` after killing a process that outlived `timeout`.
    static func exitStatus(of process: Process, timeout: Duration) async -> Int32? {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = {
            continuation.yield($0.terminationStatus); continuation.finish()
        }
        if !process.isRunning { continuation.yield(process.terminationStatus); continuation.finish() }
        let pid = process.processIdentifier
        let started = ContinuousClock.now
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        var status: Int32?
        for await value in stream { status = value }
        watchdog.cancel()
        return ContinuousClock.now - started >= timeout ? nil : status
    }
}
