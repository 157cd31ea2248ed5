import Foundation
import KnobLink
import OSCTransport
import Testing

@testable import KnobLinkCLI

/// What `knoblink serve` prints once it listens: the ready line, then the urls that reach it
/// (network addresses, then 127.0.0.1), where replies go, and that Ctrl-C stops it.
@Suite(.offThePool) struct ServeBannerTests {
    private static func interface(_ name: String, _ host: String, loopback: Bool = false) throws -> OSCInterfaceAddress
    {
        let address = try #require(OSCSocketAddress(numericHost: host, port: 0))
        return OSCInterfaceAddress(interface: name, address: address, isLoopback: loopback)
    }

    private static func machine() throws -> [OSCInterfaceAddress] {
        [
            try interface("lo", "127.0.0.1", loopback: true), try interface("lo", "::1", loopback: true),
            try interface("eth0", "192.168.1.20"), try interface("eth0", "fe80::1"),
            try interface("eth0", "2001:db8::20"), try interface("wlan0", "10.0.0.5"),
        ]
    }

    @Test func everyInterfaceListsNetworkAddressesThenThisMachine() throws {
        let banner = ServeBanner(port: 8000, bindHost: nil, feedbackPort: .fixed(9000), interfaces: try Self.machine())
        #expect(
            banner.text == """
                Listening on UDP and TCP port 8000
                  osc.udp://192.168.1.20:8000/  from the network (eth0)
                  osc.udp://[2001:db8::20]:8000/  from the network (eth0)
                  osc.udp://10.0.0.5:8000/  from the network (wlan0)
                  osc.udp://127.0.0.1:8000/  from this machine
                Replies and feedback go to port 9000 at the sender's address (TouchOSC: receive port 9000).
                Web page: http://192.168.1.20:8000/ui  (OSCQuery: http://192.168.1.20:8000/)
                Stop the server with Ctrl-C.

                """)
    }

    @Test func anIPv4WildcardLeavesIPv6Out() throws {
        let banner = ServeBanner(
            port: 8000, bindHost: "0.0.0.0", feedbackPort: .auto, interfaces: try Self.machine())
        #expect(
            banner.text == """
                Listening on UDP and TCP port 8000
                  osc.udp://192.168.1.20:8000/  from the network (eth0)
                  osc.udp://10.0.0.5:8000/  from the network (wlan0)
                  osc.udp://127.0.0.1:8000/  from this machine
                Replies and feedback go back to the port each packet came from.
                Web page: http://192.168.1.20:8000/ui  (OSCQuery: http://192.168.1.20:8000/)
                Stop the server with Ctrl-C.

                """)
    }

    @Test func aMachineWithoutNetworkSaysSo() throws {
        let loopbackOnly = [try Self.interface("lo", "127.0.0.1", loopback: true)]
        let banner = ServeBanner(port: 8000, bindHost: nil, feedbackPort: .fixed(9000), interfaces: loopbackOnly)
        #expect(banner.text.contains("  osc.udp://127.0.0.1:8000/  from this machine\n"))
        #expect(banner.text.contains("  (no other machine can reach it: no network interface is up)\n"))
    }

    @Test func theBinaryPrintsItsLoopbackUrlFeedbackPortAndHowToStop() throws {
        let process = try RunningProcess(Tool.knoblink, ["serve", "--port", "0", "--bind", "127.0.0.1"])
        defer { process.stop() }
        let complete = process.wait(timeout: .seconds(10)) { $0.stderr.contains("Stop the server with Ctrl-C.\n") }
        try #require(complete, "knoblink serve did not print its banner: \(process.stderr)")
        let lines = process.stderr.split(separator: "\n").map(String.init)
        let ready = try #require(lines.first)
        let port = try #require(UInt16(ready.dropFirst("Listening on UDP and TCP port ".count)))
        #expect(
            Array(lines.prefix(6)) == [
                "Listening on UDP and TCP port \(port)",
                "  osc.udp://127.0.0.1:\(port)/  from this machine",
                "  (no other machine can reach it: it listens on a loopback address; --bind 0.0.0.0 listens on every "
                    + "interface)",
                "Replies and feedback go to port 9000 at the sender's address (TouchOSC: receive port 9000).",
                "Web page: http://127.0.0.1:\(port)/ui  (OSCQuery: http://127.0.0.1:\(port)/)",
                "Stop the server with Ctrl-C.",
            ])
    }
}
