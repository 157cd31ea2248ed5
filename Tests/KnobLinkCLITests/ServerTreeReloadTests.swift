import Foundation
import OSCCore
import Parameters
import Testing

/// `knoblink serve --tree FILE` reads the file again on SIGHUP (PROTOCOL.md section 7, tree
/// changes): values that remain are kept, a broken file is refused with the old tree kept.
@Suite(.serialized, .offThePool) struct ServerTreeReloadTests {
    /// The default tree without the `toggle` group.
    static func smallerTree() throws -> ParameterTree {
        try ParameterTree(children: ParameterTree.defaultSpecs.filter { $0.identifier != "toggle" })
    }

    /// Waits until the server's log has `count` lines containing `text`.
    static func logged(_ server: ServeProcess, _ text: String, count: Int = 1) -> Bool {
        server.process.wait(timeout: .seconds(10)) { $0.stderr.components(separatedBy: text).count > count }
    }

    @Test func sigHupReloadsTheTreeFileAndKeepsValues() throws {
        let scratch = try Scratch()
        let file = scratch.path("tree.json")
        try ParameterTree.makeDefault().jsonString().write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServeProcess(["--feedback-port", "auto", "--tree", file, "--log-level", "info"])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/knob/frequency/raw", 1000)
        #expect(peer.request("/knob/frequency/raw/get", reply: "/knob/frequency/raw")?.number == 1000)
        #expect(peer.request("/toggle/monophonic/get", reply: "/toggle/monophonic") != nil)

        try Self.smallerTree().jsonString().write(toFile: file, atomically: true, encoding: .utf8)
        kill(try #require(server.pid), SIGHUP)
        #expect(Self.logged(server, "tree reloaded"), "\(server.stderr)")
        #expect(server.stderr.contains("0 added, 2 removed"), "\(server.stderr)")
        #expect(peer.request("/toggle/monophonic/get", reply: "/sys/error") != nil)
        #expect(peer.request("/knob/frequency/raw/get", reply: "/knob/frequency/raw")?.number == 1000)

        try "{ not a tree".write(toFile: file, atomically: true, encoding: .utf8)
        kill(try #require(server.pid), SIGHUP)
        #expect(Self.logged(server, "tree not reloaded, the old one is kept"), "\(server.stderr)")
        #expect(server.isRunning)
        #expect(peer.request("/toggle/monophonic/get", reply: "/sys/error") != nil)
        #expect(peer.request("/knob/frequency/raw/get", reply: "/knob/frequency/raw")?.number == 1000)
        #expect(server.terminate() == 0)
    }
}
