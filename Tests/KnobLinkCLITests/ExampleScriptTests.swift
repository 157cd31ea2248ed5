import Foundation
import Testing

/// `Examples/scripts/server-*.sh` fail clearly when a port they need is taken.
@Suite(.offThePool) struct ExampleScriptTests {
    private static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/scripts")

    @Test func aTakenListenPortEndsTheScriptWithItsReason() throws {
        let holder = try Peers.oscdump()
        defer { holder.process.stop() }
        let server = try Peers.freePort()
        let result = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "PORT=\(server)", "LISTEN=\(holder.port)", "KNOBLINK=\(Tool.knoblink.path)", "bash",
                Self.scripts.appendingPathComponent("server-subscribe.sh").path,
            ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("server-subscribe.sh: cannot listen on port \(holder.port):"), "\(result.stderr)")
        #expect(!result.stderr.contains("Killed"))
        #expect(!result.stdout.contains("$ oscsend"))
    }

    @Test func aTakenServerPortEndsTheDemoWithTheServersError() throws {
        let holder = try Peers.oscdump()
        defer { holder.process.stop() }
        let result = try Tool.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "PORT=\(holder.port)", "KNOBLINK=\(Tool.knoblink.path)", "bash",
                Self.scripts.appendingPathComponent("server-demo.sh").path,
            ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("server-demo.sh: the server did not start:"), "\(result.stderr)")
        #expect(!result.stdout.contains("## server-tour.sh"))
    }
}
