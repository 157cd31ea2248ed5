import Foundation
import Testing

/// A `knoblink serve` under test, started on a port from port 0 (or a given one) and killed at
/// the end; its process id serves `VmRSS` and `kill -9`. Each has a unique `--name`.
final class ServeProcess: Sendable {
    let process: ChildProcess
    let port: UInt16
    let name: String
    let arguments: [String]

    /// Starts `knoblink serve --port PORT --name NAME ARGUMENTS` and waits for
    /// `Listening on UDP and TCP port N` on stderr.
    init(_ arguments: [String] = [], port: UInt16 = 0, name: String? = nil, timeout: Duration = .seconds(20)) throws {
        let name = name ?? "e2e-\(UUID().uuidString.prefix(8))"
        self.name = name
        self.arguments = arguments
        let all = ["serve", "--port", "\(port)", "--name", name, "--no-zeroconf"] + arguments
        process = try ChildProcess(Tool.knoblink, all)
        let marker = "Listening on UDP and TCP port "
        let started = process.wait(timeout: timeout) { $0.stderr.contains(marker) || !$0.isRunning }
        let line = process.stderr.split(separator: "\n").first { $0.contains(marker) }
        guard started, let line, let bound = UInt16(line.split(separator: " ").last ?? "") else {
            process.stop()
            throw Failure.didNotStart(arguments: all, stderr: process.stderr)
        }
        self.port = bound
    }

    enum Failure: Error, CustomStringConvertible {
        case didNotStart(arguments: [String], stderr: String)
        var description: String {
            switch self {
            case .didNotStart(let arguments, let stderr):
                "knoblink \(arguments.joined(separator: " ")) did not start: \(stderr)"
            }
        }
    }

    deinit {
        process.stop()
    }

    var isRunning: Bool { process.isRunning }
    var stderr: String { process.stderr }

    /// The process id.
    var pid: Int32? { process.pid }

    /// The resident set size in KiB (`VmRSS` of /proc/PID/status).
    var residentKilobytes: Int? {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return nil
        }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }

    /// `kill -9`: no shutdown handler runs.
    func kill9() {
        if let pid { kill(pid, SIGKILL) }
        _ = process.waitForExit(timeout: .seconds(5))
    }

    /// SIGTERM; returns the exit status.
    func terminate() -> Int32? {
        process.terminate(timeout: .seconds(10))
    }

    /// SIGINT; returns the exit status.
    func interrupt() -> Int32? {
        process.interrupt(timeout: .seconds(10))
    }

    var url: String { "osc.udp://127.0.0.1:\(port)/" }
}
