import Foundation
import Locking

/// A child process whose output the test reads while it runs, with every wait bounded.
final class RunningProcess: Sendable {
    private let process: Process
    private let standardInput: Pipe
    private let output = Output()

    /// What the child wrote so far, filled by a reader thread per pipe.
    private final class Output: Sendable {
        let bytes = Locked<(stdout: [UInt8], stderr: [UInt8])>(([], []))
        /// How many of the two pipes have reached their end.
        let ended = Locked(0)
        func withLock<T>(_ body: (inout (stdout: [UInt8], stderr: [UInt8])) -> T) -> T {
            bytes.withLock { body(&$0) }
        }
    }

    /// Starts `executable` with `arguments` (and `environment` added to this process's);
    /// standard input stays open until ``closeInput()``.
    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        BlockingWaitExecutor.expectCurrent()
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        standardInput = Pipe()
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardInput = standardInput
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
        Self.drain(stdoutPipe.fileHandleForReading, into: output, standardError: false)
        Self.drain(stderrPipe.fileHandleForReading, into: output, standardError: true)
    }

    /// Reads `handle` to its end on a thread of its own, with blocking reads.
    ///
    /// Not through `FileHandle.readabilityHandler`: the dispatch sources behind those handlers
    /// crashed the test process in libdispatch's event loop (`_dispatch_event_loop_drain`, a bad
    /// pointer) when many short-lived children came and went, as they had for ``ChildProcess``.
    /// A plain thread and `read(2)` involve no dispatch source at all.
    private static func drain(_ handle: FileHandle, into output: Output, standardError: Bool) {
        let thread = Thread {
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                output.withLock {
                    if standardError { $0.stderr += buffer[0..<count] } else { $0.stdout += buffer[0..<count] }
                }
            }
            output.ended.withLock { $0 += 1 }
            withExtendedLifetime(handle) {}
        }
        thread.start()
    }

    var stdout: String { output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    var stderr: String { output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    var stdoutBytes: [UInt8] { output.withLock { $0.stdout } }

    func write(_ text: String) {
        standardInput.fileHandleForWriting.write(Data(text.utf8))
    }

    func closeInput() {
        try? standardInput.fileHandleForWriting.close()
    }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    @discardableResult
    func wait(timeout: Duration = .seconds(5), until condition: (RunningProcess) -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }

    /// Waits for the process to end by itself and returns its status, or kills it after `timeout`
    /// and returns `nil`.
    func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        guard wait(timeout: timeout, until: { !$0.process.isRunning }) else {
            process.interrupt()
            kill()
            return nil
        }
        process.waitUntilExit()
        // Output written just before the exit can still be in the pipes: read them to their end.
        wait { $0.output.ended.withLock { $0 } == 2 }
        return process.terminationStatus
    }

    /// Sends SIGTERM and waits for the end; returns the status, `nil` if it does not end.
    func terminate(timeout: Duration = .seconds(5)) -> Int32? {
        process.terminate()
        return waitForExit(timeout: timeout)
    }

    /// Sends SIGINT and waits for the end.
    func interrupt(timeout: Duration = .seconds(5)) -> Int32? {
        process.interrupt()
        return waitForExit(timeout: timeout)
    }

    var isRunning: Bool { process.isRunning }

    /// Ends a peer whose exit status does not matter. SIGKILL, because a child may inherit an
    /// ignored SIGTERM from the test runner.
    func stop() {
        kill()
        _ = waitForExit(timeout: .seconds(5))
    }

    private func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    deinit {
        kill()
    }
}
