import Foundation
import OSCCore
import Testing

/// The parameter facets of PROTOCOL.md 2 on `Examples/trees/two-voices.json` (an indexed
/// parameter with value strings, a read-only meter), and the reply formats of 3 and 9.4–9.5.
@Suite(.serialized, .offThePool) struct ServerFacetTests {
    static let treePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/trees/two-voices.json").path

    static func server() throws -> ServeProcess {
        try ServerEchoRuleTests.server(["--tree", treePath])
    }

    @Test func indexedParameterTakesItsValueStringsAndIsQuantised() throws {
        let server = try Self.server()
        let peer = try UDPTestPeer(server: server.port)
        let info = try #require(peer.request("/voice1/wave/info", reply: "/voice1/wave/info"))
        #expect(info.strings.suffix(4) == ["Sine", "Triangle", "Square", "Saw"], "\(info)")
        #expect(info.arguments.first == .string("Waveform"))
        peer.send("/voice1/wave/str", [.string("Saw")])
        #expect(peer.request("/voice1/wave/raw")?.number == 3)
        #expect(peer.request("/voice1/wave/str")?.strings == ["Saw"])
        // 0.4 of 0…3 is 1.2: index 1, normalised 1/3, sent back as a correction.
        let before = peer.messages(to: "/voice1/wave").count
        peer.send("/voice1/wave", 0.4)
        let correction = peer.waitForMessage("/voice1/wave", after: before)
        #expect(ServerEchoRuleTests.isClose(correction?.number, 1.0 / 3), "\(peer.messages)")
        #expect(peer.request("/voice1/wave/str")?.strings == ["Triangle"])
        #expect(server.terminate() == 0)
    }

    @Test func readOnlyParameterRefusesWrites() throws {
        let server = try Self.server()
        let peer = try UDPTestPeer(server: server.port)
        let before = peer.request("/master/level")?.number
        #expect(before != nil)
        peer.send("/master/level", 0.5)
        let error = peer.waitForMessage("/sys/error")
        #expect(error?.strings.first == "/master/level", "\(peer.messages)")
        #expect(peer.request("/master/level")?.number == before)
        #expect(server.terminate() == 0)
    }

    /// For `P/str`, "differs" is judged on the value, not on the text (9.5).
    @Test func displayTextOfTheSameValueGetsNoCorrection() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let peer = try UDPTestPeer(server: server.port)
        // Join first, so that the current values sent on joining (9.7) are not taken for corrections.
        peer.send("/knob/pan")
        #expect(peer.waitForUpdateEnd())
        peer.clear()
        peer.send("/knob/gain/str", [.string("-6")])
        peer.send("/knob/gain/str", [.string("-6.0 dB")])
        #expect(peer.request("/knob/gain/raw")?.number == -6)
        peer.send("/knob/gain/str", [.string("100 dB")])
        #expect(peer.wait { $0.contains { $0.address.hasPrefix("/knob/gain") && $0.address != "/knob/gain/raw" } })
        Thread.sleep(forTimeInterval: 0.3)
        let corrections = peer.messages.filter { $0.address == "/knob/gain" || $0.address == "/knob/gain/str" }
        #expect(corrections.count == 1, "\(corrections)")
        #expect(server.terminate() == 0)
    }

    @Test func listAndInfoRepliesHaveTheDocumentedTypes() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/sys/list")
        #expect(peer.waitForUpdateEnd())
        let gain = peer.messages(to: "/sys/param").first { $0.strings.first == "/knob/gain" }
        #expect(
            gain?.arguments == [
                .string("/knob/gain"), .string("Gain"), .string("dB"), .float32(-60), .float32(12), .float32(0),
                .float32(0),
            ], "\(String(describing: gain))")
        let info = peer.request("/knob/frequency/info", reply: "/knob/frequency/info")
        #expect(info?.arguments.map(\.typeTag) == Array("ssfffsi".utf8), "\(String(describing: info))")
        #expect(info?.strings == ["Frequency", "Hz", "logarithmic"])
        #expect(server.terminate() == 0)
    }

    /// Subscription patterns follow the specification: `*` does not cross `/` (OSC-NOTES: liblo's
    /// does).
    @Test func starInASubscriptionPatternDoesNotCrossSlashes() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/sys/subscribe", [.string(peer.url), .string("/*"), .float32(0), .int32(1)])
        #expect(peer.waitForUpdateEnd())
        #expect(peer.messages.allSatisfy { $0.address == "/sys/update" }, "\(peer.messages)")
        peer.send("/sys/subscribe", [.string(peer.url), .string("/*/gain"), .float32(0), .int32(1)])
        #expect(peer.waitForUpdateEnd(count: 2))
        #expect(peer.messages.filter { $0.address != "/sys/update" }.map(\.address) == ["/knob/gain"])
        #expect(server.terminate() == 0)
    }

    /// A single-END SLIP frame (no leading END) is accepted (9.13); the reply is framed with SLIP.
    @Test func singleEndSLIPFrameIsAccepted() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let script = """
            import socket, sys
            def s(x):
                b = x.encode() + b'\\0'
                return b + b'\\0' * ((4 - len(b) % 4) % 4)
            sock = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
            sock.settimeout(5)
            sock.sendall(b'\\xc0' + s('/knob/gain') + s(',') + b'\\xc0')
            sock.sendall(s('/amp/sustain/raw') + s(',') + b'\\xc0')
            data = b''
            while data.count(b'/amp/sustain/raw') == 0:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            print(data.hex())
            """
        let result = try Tool.run(Tool.system("python3"), ["-c", script, "\(server.port)"])
        let reply = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            reply.contains(Array("/amp/sustain/raw".utf8).map { String(format: "%02x", $0) }.joined()),
            "no reply to the single-END frame: \(reply) \(result.stderr)")
        // SLIP-framed, the first packet without its leading END (9.13: liblo 0.31 drops a bundle
        // that follows an END at the start of a connection), END END between packets.
        #expect(reply.hasPrefix("2f") && reply.contains("c0c0"), "reply not SLIP-framed as 9.13 says: \(reply)")
        #expect(server.terminate() == 0)
    }

    /// `::1` is in the default allow-list and the server listens on every interface (1): an IPv6
    /// peer (python, since liblo here has no IPv6) is answered over UDP and TCP, by default and
    /// with `--bind ::`.
    @Test(arguments: [[], ["--bind", "::"]])
    func ipv6LoopbackPeerIsServed(bind: [String]) throws {
        let server = try ServeProcess(["--feedback-port", "auto"] + bind)
        let script = """
            import socket, struct, sys
            from pythonosc.osc_message_builder import OscMessageBuilder
            from pythonosc.osc_packet import OscPacket
            port = int(sys.argv[1])
            query = OscMessageBuilder(address='/knob/gain/raw').build().dgram
            udp = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
            udp.settimeout(5)
            udp.sendto(query, ('::1', port))
            while True:
                for timed in OscPacket(udp.recv(65536)).messages:
                    if timed.message.address == '/knob/gain/raw':
                        print('udp', timed.message.params[0])
                        break
                else:
                    continue
                break
            tcp = socket.create_connection(('::1', port), timeout=5)
            tcp.sendall(struct.pack('>i', len(query)) + query)
            data = b''
            while b'/knob/gain/raw' not in data:
                data += tcp.recv(65536)
            print('tcp ok')
            """
        let result = try Tool.run(Tool.system("python3"), ["-c", script, "\(server.port)"])
        #expect(result.stdout == "udp 0.0\ntcp ok\n", "\(result.stdout) \(result.stderr)")
        #expect(server.terminate() == 0)
    }

    /// `P/info` of an indexed parameter with many value strings is split into messages each within
    /// the loopback datagram limit (9.14), and every value string arrives.
    @Test func infoWithManyValueStringsIsSplit() throws {
        let scratch = try Scratch()
        let (tree, names) = try Self.indexedTree(in: scratch)
        let server = try ServerEchoRuleTests.server(["--tree", tree])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/choice/info")
        #expect(peer.wait { $0.flatMap(\.strings).contains(names.last!) })
        Thread.sleep(forTimeInterval: 0.3)
        let strings = peer.messages.filter { $0.address != "/sys/update" && $0.address != "/choice" }.flatMap(\.strings)
        #expect(strings.filter { $0.hasPrefix("Value string number ") } == names)
        #expect(peer.datagramSizes.allSatisfy { $0 <= 8192 }, "\(peer.datagramSizes.max() ?? 0) bytes")
        #expect(server.terminate() == 0)
    }

    /// A tree of one parameter, `/choice`, with 1000 value strings: its `/info` is too large
    /// for one datagram. Returns the file's path and the strings.
    static func indexedTree(in scratch: Scratch) throws -> (path: String, names: [String]) {
        let names = (0..<1000).map { "Value string number \($0)" }
        let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
        let tree = try scratch.write(
            "indexed.json",
            """
            {"format": "knoblink-tree", "version": 1, "children": [
            {"kind": "parameter", "identifier": "choice", "displayName": "Choice", "address": 1, "min": 0,
             "max": 999, "default": 0, "unit": "indexed", "taper": "linear",
             "flags": ["valuesHaveStrings", "readable", "writable"], "valueStrings": [\(quoted)]}]}
            """)
        return (tree, names)
    }
}
