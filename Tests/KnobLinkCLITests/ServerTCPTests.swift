import Foundation
import OSCCore
import Testing

/// TCP peers (PROTOCOL.md 1, 9.13): python-osc's TCP client in both framings is a peer of its own
/// and gets replies and feedback on its connection; a peer that stops reading slows nobody.
@Suite(.serialized, .offThePool) struct ServerTCPTests {
    @Test(arguments: ["1.0", "1.1"])
    func tcpPeerQueriesSetsAndGetsFeedback(mode: String) throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let tcp = try PythonPeer.tcp(port: server.port, mode: mode)
        let udp = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(udp)
        tcp.send("/knob/gain")
        let reply = tcp.waitForMessage("/knob/gain")
        #expect(ServerEchoRuleTests.isClose(reply?.number, 60.0 / 72), "\(tcp.messages) \(tcp.process.stderr)")
        // The query made it an implicit subscriber (9.7): another peer's change reaches it.
        udp.send("/knob/pan", 0.2)
        #expect(tcp.wait { $0.contains(OSCMessage("/knob/pan", [.float32(0.2)])) }, "\(tcp.messages)")
        tcp.send("/knob/gain", "f 0.25")
        #expect(udp.wait { $0.contains(OSCMessage("/knob/gain", [.float32(0.25)])) })
        let mark = tcp.mark
        tcp.send("/toggle/retrigger", "f 0.7")
        #expect(tcp.waitForMessage("/toggle/retrigger", after: mark) == OSCMessage("/toggle/retrigger", [.float32(1)]))
        tcp.send("/knob/gain/str")
        #expect(tcp.waitForMessage("/knob/gain/str")?.strings == ["-42 dB"])
        tcp.send("/sys/list")
        #expect(tcp.wait { $0.count { $0.address == "/sys/param" } == 17 && $0.last?.address == "/sys/update" })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!tcp.messages.contains { $0.address.hasPrefix("#") }, "\(tcp.messages)")
        #expect(!tcp.messages.contains(OSCMessage("/knob/gain", [.float32(0.25)])), "its own value came back")
        #expect(server.terminate() == 0)
    }

    /// liblo's `oscsend` over TCP (length prefix) is applied like a UDP set.
    @Test func oscsendOverTCPSetsAValue() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let udp = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(udp)
        let result = try Tool.run(
            Tool.system("oscsend"), ["osc.tcp://127.0.0.1:\(server.port)", "/knob/gain", "f", "0.125"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(udp.wait { $0.contains(OSCMessage("/knob/gain", [.float32(0.125)])) })
        #expect(server.terminate() == 0)
    }

    @Test func aPeerThatStopsReadingDoesNotSlowTheOthers() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--rate-limit", "1000000"])
        let before = server.residentKilobytes
        let stalled = try PythonPeer(script: "stalled_tcp_peer.py", ["\(server.port)"])
        #expect(stalled.process.wait(timeout: .seconds(15)) { $0.stdout.contains("STALLED") })
        let subscriber = try UDPTestPeer(server: server.port)
        let setter = try UDPTestPeer(server: server.port)
        ServerEchoRuleTests.subscribe(subscriber)
        let start = ContinuousClock.now
        for index in 1...2000 {
            setter.send("/knob/gain", Float(index) / 2001)
            if index.isMultiple(of: 200) { Thread.sleep(forTimeInterval: 0.01) }
        }
        let final = Double(Float(2000) / 2001)
        #expect(subscriber.wait(timeout: .seconds(5)) { $0.last { $0.address == "/knob/gain" }?.number == final })
        #expect(ContinuousClock.now - start < .seconds(5))
        // Round trips to another peer stay prompt while the stalled connection is backed up.
        let pinger = try UDPTestPeer(server: server.port)
        for _ in 0..<20 {
            #expect(pinger.request("/sys/ping", reply: "/sys/pong", timeout: .seconds(1)) != nil)
        }
        #expect(server.isRunning)
        if let before, let after = server.residentKilobytes {
            #expect(after - before < 64 * 1024, "RSS grew from \(before) to \(after) KiB")
        }
        stalled.process.stop()
        #expect(server.terminate() == 0)
    }
}
