import Foundation
import OSCCore
import Testing

/// `knoblink serve` without an Avahi daemon: it says so in one log line and serves
/// (PROTOCOL.md section 9); `--no-zeroconf` says nothing. With a daemon, ZeroconfTests check
/// what is advertised.
@Suite(.offThePool) struct ZeroconfServeTests {
    /// The system bus at a socket that does not exist: no daemon, whatever runs on this machine.
    static let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/knoblink-test-bus"]

    static func serve(_ options: [String]) throws -> (RunningProcess, UInt16) {
        let process = try RunningProcess(
            Tool.knoblink, ["serve", "--port", "0", "--bind", "127.0.0.1"] + options, environment: noBus)
        let ready = process.wait(timeout: .seconds(10)) { ServeCommandTests.readyLine(in: $0.stderr) != nil }
        try #require(ready, "knoblink serve did not start: \(process.stderr)")
        let line = try #require(ServeCommandTests.readyLine(in: process.stderr))
        let port = try #require(UInt16(line.dropFirst(ServeCommandTests.readyPrefix.count)))
        return (process, port)
    }

    @Test func withoutADaemonItSaysSoOnceAndServes() throws {
        let (process, port) = try Self.serve([])
        defer { process.stop() }
        #expect(process.wait(timeout: .seconds(10)) { $0.stderr.contains("zeroconf off") }, "\(process.stderr)")
        let result = try Tool.run(Tool.knoblink, ["get", "127.0.0.1", "\(port)", "/knob/gain"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = process.stderr.split(separator: "\n").filter { $0.contains("zeroconf") }
        #expect(lines.count == 1, "\(process.stderr)")
        #expect(lines.first?.contains("--no-zeroconf") == true)
    }

    @Test func noZeroconfSaysNothing() throws {
        let (process, port) = try Self.serve(["--no-zeroconf"])
        defer { process.stop() }
        let result = try Tool.run(Tool.knoblink, ["get", "127.0.0.1", "\(port)", "/knob/gain"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!process.stderr.contains("zeroconf"), "\(process.stderr)")
    }
}
