import Foundation
import Locking

/// A command's result: its exit status (`nil` when it was killed at its deadline) and output.
struct CommandResult: Sendable {
    var status: Int32?
    var stdout: String
    var stderr: String
}

/// Runs short commands (the daemon script, `avahi-browse`) with a deadline, on a thread of their
/// own so that the wait never holds a thread of the Swift concurrency pool.
enum Command {
    /// Runs `executable` with `arguments`, killing it after `timeout`.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(10)) async
        -> CommandResult
    {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: runBlocking(executable, arguments, timeout: timeout)) }
            thread.name = "ZeroconfTests command"
            thread.start()
        }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], timeout: Duration) -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return CommandResult(status: 127, stdout: "", stderr: "cannot run \(executable): \(error)")
        }
        let out = drain(stdout.fileHandleForReading)
        let err = drain(stderr.fileHandleForReading)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let killed = process.isRunning
        if killed {
            kill(process.processIdentifier, SIGKILL)
            // Not waitUntilExit: Foundation sees a child end when a socket the child inherited
            // closes, and a daemon the child forked may hold that socket for ever.
            let grace = ContinuousClock.now + .seconds(2)
            while process.isRunning && ContinuousClock.now < grace { Thread.sleep(forTimeInterval: 0.01) }
        }
        let status = killed || process.isRunning ? nil : process.terminationStatus
        return CommandResult(status: status, stdout: out.wait(), stderr: err.wait())
    }

    /// What a pipe delivers up to its end, read by a thread of its own (a full pipe would
    /// otherwise stall the child).
    private final class Drained: Sendable {
        let bytes = Locked<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)

        func wait() -> String {
            _ = done.wait(timeout: .now() + 5)
            return bytes.withLock { String(decoding: $0, as: UTF8.self) }
        }
    }

    private static func drain(_ handle: FileHandle) -> Drained {
        let drained = Drained()
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 14)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                drained.bytes.withLock { $0 += buffer[0..<count] }
            }
            drained.done.signal()
        }
        thread.start()
        return drained
    }
}
