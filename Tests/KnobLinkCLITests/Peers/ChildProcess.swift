import Foundation

/// A long-lived child (a server under test, a python peer) whose output goes to files that the
/// test polls, with every wait bounded.
///
/// Unlike ``RunningProcess`` it reads no pipe through `FileHandle.readabilityHandler`: with tens
/// of children started and killed at once, the dispatch sources behind those handlers crashed
/// the test process once in libdispatch's event loop. Files need no source at all.
final class ChildProcess: Sendable {
    private let process: Process
    private let standardInput: Pipe
    private let stdoutPath: String
    private let stderrPath: String
    private let directory: URL

    init(_ executable: URL, _ arguments: [String]) throws {
        BlockingWaitExecutor.expectCurrent()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stdoutPath = directory.appendingPathComponent("stdout").path
        stderrPath = directory.appendingPathComponent("stderr").path
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        standardInput = Pipe()
        process.standardInput = standardInput
        let output = FileHandle(forWritingAtPath: stdoutPath)
        let errors = FileHandle(forWritingAtPath: stderrPath)
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The child has its own copies; the parent's would stay open for the whole test run.
        try? output?.close()
        try? errors?.close()
    }

    deinit {
        kill()
        if process.isRunning { process.waitUntilExit() }
        try? standardInput.fileHandleForWriting.close()
        try? FileManager.default.removeItem(at: directory)
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func write(_ text: String) {
        guard process.isRunning else { return }
        try? standardInput.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    @discardableResult
    func wait(timeout: Duration = .seconds(5), until condition: (ChildProcess) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }

    /// Waits for the end and returns the status, or kills the child after `timeout` and returns `nil`.
    func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        guard wait(timeout: timeout, until: { !$0.isRunning }) else {
            kill()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGTERM, then the status.
    func terminate(timeout: Duration = .seconds(10)) -> Int32? {
        process.terminate()
        return waitForExit(timeout: timeout)
    }

    /// SIGINT, then the status.
    func interrupt(timeout: Duration = .seconds(10)) -> Int32? {
        process.interrupt()
        return waitForExit(timeout: timeout)
    }

    /// SIGKILL (a child may inherit an ignored SIGTERM from the test runner) and the end.
    func stop() {
        kill()
        _ = waitForExit(timeout: .seconds(5))
    }

    private func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}
