import Foundation
import OSCCore
import Testing

/// One of the python-osc peers of `Peers/python`, driven by lines on its stdin; it prints every
/// message it receives as a JSON line, which this wrapper reads back as ``OSCMessage``s.
final class PythonPeer: Sendable {
    let process: ChildProcess
    /// What the script printed first (`LISTEN PORT`, `CONNECTED`).
    let banner: String

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("python")

    init(script: String, _ arguments: [String]) throws {
        let path = Self.directory.appendingPathComponent(script).path
        process = try ChildProcess(Tool.system("python3"), ["-u", path] + arguments)
        let started = process.wait(timeout: .seconds(10)) { $0.stdout.contains("\n") || !$0.isRunning }
        let banner = process.stdout.split(separator: "\n").first.map(String.init) ?? ""
        guard started, !banner.isEmpty, !banner.hasPrefix("{") else {
            process.stop()
            throw PythonPeerError(script: script, stderr: process.stderr)
        }
        self.banner = banner
    }

    /// A TouchOSC-like surface listening for feedback on `host:port` and sending from its own port.
    static func touchOSC(host: String, listenPort: UInt16 = 0) throws -> PythonPeer {
        try PythonPeer(script: "touchosc_peer.py", [host, "\(listenPort)"])
    }

    /// A python-osc TCP client connected to the server in `mode` "1.0" or "1.1".
    static func tcp(port: UInt16, mode: String) throws -> PythonPeer {
        try PythonPeer(script: "tcp_peer.py", ["\(port)", mode])
    }

    deinit {
        process.stop()
    }

    /// The port printed as `LISTEN PORT`.
    var listenPort: UInt16? { UInt16(banner.split(separator: " ").last ?? "") }

    func command(_ line: String) {
        process.write(line + "\n")
    }

    /// Sends one message, its arguments given as `f 0.5`, `i 1`, `s text` pairs.
    func send(_ address: String, _ arguments: String = "") {
        command("send \(address) \(arguments)")
    }

    /// Every message printed so far.
    var messages: [OSCMessage] {
        process.stdout.split(separator: "\n").dropFirst().compactMap { Self.parse(String($0)) }
    }

    func messages(to address: String) -> [OSCMessage] {
        messages.filter { $0.address == address }
    }

    /// How many messages had arrived when this was called; pass it as `after` to the waits.
    var mark: Int { messages.count }

    @discardableResult
    func wait(timeout: Duration = .seconds(5), until condition: ([OSCMessage]) -> Bool) -> Bool {
        process.wait(timeout: timeout) { _ in condition(self.messages) }
    }

    /// Waits for a message to `address` among those after the first `after` messages.
    func waitForMessage(_ address: String, after: Int = 0, timeout: Duration = .seconds(5)) -> OSCMessage? {
        guard wait(timeout: timeout, until: { $0.dropFirst(after).contains { $0.address == address } }) else {
            return nil
        }
        return messages.dropFirst(after).first { $0.address == address }
    }

    static func parse(_ line: String) -> OSCMessage? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let address = object["address"] as? String, let arguments = object["args"] as? [[Any]]
        else { return nil }
        return OSCMessage(
            address,
            arguments.map { pair in
                let tag = pair.first as? String ?? "?"
                let value = pair.dropFirst().first
                switch tag {
                case "f": return .float32(Float((value as? NSNumber)?.doubleValue ?? .nan))
                case "i": return .int32(Int32(truncatingIfNeeded: (value as? NSNumber)?.intValue ?? 0))
                case "s": return .string(value as? String ?? "")
                case "T": return .true
                case "F": return .false
                default: return .string("\(tag):\(value ?? "")")
                }
            })
    }
}
