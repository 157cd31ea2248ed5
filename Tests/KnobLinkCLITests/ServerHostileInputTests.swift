import Foundation
import OSCCore
import Testing

/// Hostile input (PROTOCOL.md 8, 9.2, 9.12, 9.13): the server stays up, answers within its limits
/// (a burst of 10 `/sys/error`, then at most one a second per peer), loses no state, and its memory stays bounded.
@Suite(.serialized, .offThePool) struct ServerHostileInputTests {
    static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8) + [0]
        return bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }

    static func int32(_ value: Int32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    /// Packets that no decoder should accept: liblo's own rejects and what they lack.
    static let malformed: [[UInt8]] = [
        [],
        Array("/x".utf8),
        Array("/abc".utf8),
        Array("/x\0X,i\0\0".utf8) + int32(1),
        Array("/x\0\0\0\0\0\0".utf8) + int32(1),
        Array("/x\0\0i\0\0\0".utf8) + int32(1),
        Array("/x\0\0,iii".utf8) + int32(1) + int32(2) + int32(3),
        string("/knob/gain") + string(",f"),
        string("/knob/gain") + string(",f") + int32(0) + int32(0),
        string("/x") + string(",b") + int32(999_999) + int32(0),
        string("/x") + string(",b") + int32(-4) + int32(0),
        string("/x") + string(",q") + int32(0),
        string("/x") + string(",[f") + int32(0),
        string("/x") + string(",]") + int32(0),
        string("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1] + int32(1000) + string("/x"),
        string("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1] + int32(-8) + string("/x"),
        Array("#bundle\0".utf8),
        string("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1] + int32(5) + Array("/x\0\0\0".utf8) + [0, 0, 0],
        [UInt8](repeating: UInt8(ascii: "a"), count: 1400),
        nested(
            depth: 60,
            string("/knob/gain") + string(",f") + withUnsafeBytes(of: Float(0.01).bitPattern.bigEndian, Array.init)),
    ]

    /// Well-formed messages the server must refuse or ignore without changing any value.
    static let refused: [OSCMessage] = [
        OSCMessage("/nope/x", [.float32(1)]),
        OSCMessage("/knob/gain/nope", [.float32(1)]),
        OSCMessage("/sys/nope"),
        OSCMessage("/knob/gain", [.string("loud")]),
        OSCMessage("/knob/gain", [.blob([1, 2, 3])]),
        OSCMessage("/knob/gain", [.float32(.nan)]),
        OSCMessage("/knob/gain", [.array([.float32(0.1)])]),
        OSCMessage("/knob/gain/raw", [.double(.nan)]),
        OSCMessage("/knob/gain/str", [.string("very loud")]),
        OSCMessage("/knob/gain/str", [.string(String(repeating: "x", count: 1000))]),
        OSCMessage("/knob/gain/touch", [.string("x")]),
        OSCMessage("/knob", [.float32(0.5)]),
        OSCMessage("/", [.float32(0.5)]),
        OSCMessage("/sys/subscribe", [.string("garbage")]),
        OSCMessage("/sys/subscribe", [.int32(7)]),
        OSCMessage("/sys/unsubscribe", [.string("osc.udp://nowhere:1/")]),
        OSCMessage("/sys/preset/load", [.string("../../etc/passwd")]),
        OSCMessage("/sys/preset/save", [.string("../escape")]),
        OSCMessage("/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", [.float32(0.5)]),
        OSCMessage("/[!a-z]/{x,y,z}/???????????", [.float32(0.5)]),
        OSCMessage("/wave/nope", [.float32(0.5)]),
    ]

    /// A message `inner` wrapped in `depth` bundles.
    static func nested(depth: Int, _ inner: [UInt8]) -> [UInt8] {
        var packet = inner
        for _ in 0..<depth {
            packet = string("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1] + int32(Int32(packet.count)) + packet
        }
        return packet
    }

    static func nested(depth: Int, _ message: OSCMessage) -> [UInt8] {
        nested(depth: depth, message.encoded())
    }

    @Test func floodOfMalformedRandomAndRefusedPackets() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let keeper = try UDPTestPeer(server: server.port)
        let watcher = try UDPTestPeer(server: server.port)
        keeper.send("/knob/gain", 0.375)
        keeper.send("/amp/sustain", 0.625)
        #expect(ServerEchoRuleTests.isClose(keeper.request("/knob/gain")?.number, 0.375))
        ServerEchoRuleTests.subscribe(watcher)
        let before = try #require(server.residentKilobytes)

        let flooders = try (0..<4).map { _ in try UDPTestPeer(server: server.port) }
        var generator = SystemRandomNumberGenerator()
        let start = ContinuousClock.now
        var sent = 0
        while ContinuousClock.now - start < .seconds(3) {
            for flooder in flooders {
                for packet in Self.malformed { flooder.sendRaw(packet) }
                for message in Self.refused { flooder.send(message.address, message.arguments) }
                for _ in 0..<20 {
                    let count = Int.random(in: 1...1400, using: &generator)
                    flooder.sendRaw((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
                }
                sent += Self.malformed.count + Self.refused.count + 20
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        let elapsed = (ContinuousClock.now - start).seconds
        Thread.sleep(forTimeInterval: 1)

        #expect(server.isRunning, "the server died: \(server.stderr.suffix(2000))")
        #expect(keeper.request("/sys/ping", reply: "/sys/pong") != nil, "no pong after \(sent) hostile packets")
        #expect(ServerEchoRuleTests.isClose(keeper.request("/knob/gain")?.number, 0.375))
        #expect(ServerEchoRuleTests.isClose(keeper.request("/amp/sustain")?.number, 0.625))
        let changes = watcher.messages.filter { !$0.address.hasPrefix("/sys/") }
        #expect(changes.isEmpty, "values changed under the flood: \(changes.prefix(10))")
        for flooder in flooders {
            let errors = flooder.messages(to: "/sys/error").count
            #expect(errors >= 1, "the flooder was never told")
            #expect(Double(errors) <= 10 + elapsed + 2, "\(errors) /sys/error in \(elapsed) s")
        }
        let after = try #require(server.residentKilobytes)
        #expect(after - before < 48 * 1024, "RSS grew from \(before) to \(after) KiB")
        // Every drop is counted (8): some counter of /sys/stats is not zero.
        let stats = keeper.request("/sys/stats", reply: "/sys/stats")
        let counts = (stats?.arguments ?? []).compactMap { (argument: OSCArgument) -> Int32? in
            if case .int32(let value) = argument { value } else { nil }
        }
        #expect(counts.contains { $0 > 0 }, "\(String(describing: stats))")
        #expect(server.terminate() == 0)
    }

    /// A top-level bundle is depth 1; deeper than 8 is dropped whole with `/sys/error` (9.12).
    @Test func bundlesNestedDeeperThanEightAreDroppedWhole() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let peer = try UDPTestPeer(server: server.port)
        peer.sendRaw(Self.nested(depth: 8, OSCMessage("/knob/pan", [.float32(0.25)])))
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/pan")?.number, 0.25), "depth 8 was not applied")
        let deep = try UDPTestPeer(server: server.port)
        deep.sendRaw(Self.nested(depth: 9, OSCMessage("/knob/pan", [.float32(0.75)])))
        let error = deep.waitForMessage("/sys/error")
        #expect(error != nil, "no /sys/error for depth 9")
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/pan")?.number, 0.25), "depth 9 was applied")
        #expect(server.terminate() == 0)
    }

    /// An unreadable datagram gets `/sys/error s "" s reason` (9.2).
    @Test func unreadableDatagramGetsAnErrorWithAnEmptyAddress() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let peer = try UDPTestPeer(server: server.port)
        peer.sendRaw(Self.string("/x") + Self.string(",q") + Self.int32(0))
        let error = peer.waitForMessage("/sys/error")
        #expect(error?.strings.first == "", "\(String(describing: error))")
        #expect(error?.strings.count == 2)
        #expect(server.terminate() == 0)
    }

    @Test(arguments: ["length", "slip", "junk"])
    func oversizedOrUnframedTCPStreamIsClosedAndOthersGoOn(mode: String) throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let bystander = try PythonPeer.tcp(port: server.port, mode: "1.0")
        bystander.send("/knob/gain")
        #expect(bystander.waitForMessage("/knob/gain") != nil)
        let before = try #require(server.residentKilobytes)
        let hostile = try Tool.run(
            Tool.system("python3"),
            [
                PythonPeer.directory.appendingPathComponent("hostile_tcp_peer.py").path,
                "\(server.port)", mode,
            ])
        #expect(hostile.stdout == "CLOSED\n", "\(hostile.stdout) \(hostile.stderr)")
        #expect(server.isRunning)
        let mark = bystander.mark
        bystander.send("/knob/pan")
        #expect(bystander.waitForMessage("/knob/pan", after: mark) != nil, "the other connection stopped")
        let after = try #require(server.residentKilobytes)
        #expect(after - before < 32 * 1024, "RSS grew from \(before) to \(after) KiB")
        #expect(server.terminate() == 0)
    }

    /// A peer outside `--allow` is dropped: no reply, no change (1).
    @Test func peerOutsideTheAllowListIsIgnored() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--allow", "10.0.0.0/8", "--allow", "127.0.0.3/32"])
        let outsider = try UDPTestPeer(host: "127.0.0.1", server: server.port)
        let insider = try UDPTestPeer(host: "127.0.0.3", server: server.port)
        ServerEchoRuleTests.subscribe(insider)
        outsider.send("/knob/gain", 0.125)
        outsider.send("/sys/ping")
        outsider.send("/knob/gain")
        outsider.send("/nope")
        outsider.send("/sys/subscribe", [.string(outsider.url)])
        Thread.sleep(forTimeInterval: 1)
        #expect(outsider.datagramCount == 0, "\(outsider.messages)")
        #expect(insider.messages(to: "/knob/gain").isEmpty)
        #expect(ServerEchoRuleTests.isClose(insider.request("/knob/gain")?.number, 60.0 / 72))
        #expect(insider.request("/sys/ping", reply: "/sys/pong") != nil)
        #expect(server.terminate() == 0)
    }

    /// Only `10.0.0.0/8`: nothing on loopback gets in, and the state file shows nothing changed.
    @Test func allowListOfAnotherNetworkLetsNoLoopbackPeerIn() throws {
        let scratch = try Scratch()
        let state = scratch.path("state.json")
        let server = try ServeProcess(["--feedback-port", "auto", "--allow", "10.0.0.0/8", "--state", state])
        let outsider = try UDPTestPeer(server: server.port)
        for value: Float in [0.125, 0.25] { outsider.send("/knob/gain", value) }
        outsider.send("/sys/ping")
        Thread.sleep(forTimeInterval: 1)
        #expect(outsider.datagramCount == 0)
        #expect(server.terminate() == 0)
        let again = try ServeProcess(["--feedback-port", "auto", "--state", state])
        let peer = try UDPTestPeer(server: again.port)
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/gain")?.number, 60.0 / 72))
        #expect(again.terminate() == 0)
    }

    /// Tree files that must be refused at start with a message (exit 1, never a crash), naming
    /// the node where there is one.
    static let hostileTrees: [(name: String, text: String, mentions: String?)] = [
        ("empty", "", nil),
        ("not json", "{\"format\": \"knoblink-tree\", \"version\": 1, \"children\": [", nil),
        ("binary", String(decoding: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }, as: UTF8.self), nil),
        ("reserved sys", tree(#"{"kind": "group", "identifier": "sys", "displayName": "S", "children": []}"#), "sys"),
        ("reserved wave", tree(parameter("wave")), "wave"),
        ("facet raw", tree(group("knob", parameter("raw"))), "raw"),
        ("facet touch", tree(group("knob", parameter("touch"))), "touch"),
        ("facet z", tree(group("knob", parameter("z"))), "z"),
        ("bad identifier", tree(parameter("two words")), "two words"),
        ("duplicate", tree(group("knob", parameter("gain") + "," + parameter("gain"))), "gain"),
        ("min above max", tree(parameter("upside", min: "10", max: "-10")), "upside"),
        ("huge number", tree(parameter("huge", min: "0", max: "1e400")), nil),
        ("deep", String(repeating: "[", count: 100_000), nil),
        (
            "deep groups",
            tree(
                String(
                    repeating: #"{"kind": "group", "identifier": "g", "displayName": "G", "children": ["#, count: 5000)
                    + String(repeating: "]}", count: 5000)), nil
        ),
    ]

    static func tree(_ children: String) -> String {
        #"{"format": "knoblink-tree", "version": 1, "children": [\#(children)]}"#
    }

    static func group(_ identifier: String, _ children: String) -> String {
        #"{"kind": "group", "identifier": "\#(identifier)", "displayName": "G", "children": [\#(children)]}"#
    }

    static func parameter(_ identifier: String, min: String = "0", max: String = "1") -> String {
        #"""
        {"kind": "parameter", "identifier": "\#(identifier)", "displayName": "P", "address": 1, "min": \#(min),
         "max": \#(max), "default": 0, "unit": "generic", "taper": "linear", "flags": ["readable", "writable"]}
        """#
    }

    @Test func hostileTreeFilesAreRefusedWithAMessage() throws {
        let scratch = try Scratch()
        for (index, item) in Self.hostileTrees.enumerated() {
            let path = try scratch.write("tree\(index).json", item.text)
            let process = try RunningProcess(Tool.knoblink, ["serve", "--port", "0", "--tree", path])
            let status = process.waitForExit(timeout: .seconds(20))
            #expect(status == 1, "\(item.name): status \(String(describing: status)), \(process.stderr.prefix(500))")
            #expect(process.stderr.hasPrefix("Error:"), "\(item.name): \(process.stderr.prefix(500))")
            if let mentions = item.mentions {
                #expect(process.stderr.contains(mentions), "\(item.name): \(process.stderr.prefix(500))")
            }
        }
    }

    /// Preset files that are broken, huge, deep, of the wrong types or not files at all: loading
    /// them changes nothing that does not fit, answers with `/sys/error`, and the server goes on.
    @Test func hostilePresetFilesDoNotHurtTheServer() throws {
        let scratch = try Scratch()
        let presets = try scratch.subdirectory("presets")
        let wrongTypes =
            #"{"format": "knoblink-preset", "version": 1, "name": "w", "values": {"knob.gain": "loud", "#
            + #""knob.pan": [1], "knob.frequency": null, "nope.nope": 3}}"#
        let files: [(name: String, text: String)] = [
            ("broken", "{\"format\": \"knoblink-preset\", \"values\": {"),
            ("empty", ""),
            (
                "huge",
                "{\"format\": \"knoblink-preset\", \"version\": 1, \"name\": \"huge\", \"values\": {"
                    + String(repeating: "\"knob.gain\": 1, ", count: 400_000) + "\"knob.pan\": 0}}"
            ),
            ("deep", String(repeating: "{\"a\": ", count: 50_000)),
            ("wrong types", wrongTypes),
            ("other format", "{\"format\": \"something-else\", \"version\": 9, \"values\": {\"knob.gain\": 12}}"),
        ]
        for file in files { try scratch.write("presets/\(file.name).json", file.text) }
        try FileManager.default.createSymbolicLink(atPath: presets + "/link.json", withDestinationPath: "/dev/zero")
        try FileManager.default.createDirectory(atPath: presets + "/dir.json", withIntermediateDirectories: false)

        let server = try ServeProcess(["--feedback-port", "auto", "--presets", presets])
        let keeper = try UDPTestPeer(server: server.port)
        keeper.send("/knob/gain", 0.375)
        keeper.send("/knob/pan", 0.125)
        keeper.send("/sys/preset/save", [.string("good")])
        #expect(keeper.wait { _ in FileManager.default.fileExists(atPath: presets + "/good.json") })
        for name in files.map(\.name) + ["link", "dir"] {
            // A fresh peer each time: /sys/error is limited to one a second per peer.
            let loader = try UDPTestPeer(server: server.port)
            loader.send("/sys/preset/load", [.string(name)])
            if name != "wrong types" {
                let error = loader.waitForMessage("/sys/error")
                #expect(error?.strings.first == "/sys/preset/load", "\(name): \(String(describing: error))")
            }
            #expect(keeper.request("/sys/ping", reply: "/sys/pong") != nil, "no pong after loading \(name)")
            #expect(ServerEchoRuleTests.isClose(keeper.request("/knob/gain")?.number, 0.375), "\(name) changed gain")
            #expect(ServerEchoRuleTests.isClose(keeper.request("/knob/pan")?.number, 0.125), "\(name) changed pan")
        }
        let escaping = try UDPTestPeer(server: server.port)
        escaping.send("/sys/preset/save", [.string("../escape")])
        #expect(escaping.waitForMessage("/sys/error") != nil)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("escape.json")))
        let lister = try UDPTestPeer(server: server.port)
        lister.send("/sys/preset/list")
        #expect(lister.waitForUpdateEnd())
        #expect(lister.messages(to: "/sys/preset").contains(OSCMessage("/sys/preset", [.string("good")])))
        #expect(server.isRunning)
        #expect(server.terminate() == 0)
    }

    /// Preset names outside `[A-Za-z0-9 _.-]{1,64}`, or starting with `.`, are refused (9.15) and
    /// nothing is written.
    @Test(arguments: [
        "", ".hidden", "a/b", "../up", String(repeating: "n", count: 65), "tab\there", "é", "semi;colon",
    ])
    func presetNamesOutsideTheRuleAreRefused(name: String) throws {
        let scratch = try Scratch()
        let presets = try scratch.subdirectory("presets")
        let server = try ServeProcess(["--feedback-port", "auto", "--presets", presets])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/sys/preset/save", [.string(name)])
        #expect(peer.waitForMessage("/sys/error")?.strings.first == "/sys/preset/save", "\(peer.messages)")
        #expect((try FileManager.default.subpathsOfDirectory(atPath: scratch.directory.path)) == ["presets"])
        #expect(server.terminate() == 0)
    }

    /// A TCP frame within `--max-frame` is read whole; one byte over closes the connection (9.13).
    @Test func maxFrameFlagSetsTheTCPLimit() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--max-frame", "4096"])
        let script = """
            import socket, struct, sys
            def s(x):
                b = x.encode() + b'\\0'
                return b + b'\\0' * ((4 - len(b) % 4) % 4)
            def frame(size):
                head = s('/knob/pan/str') + s(',s')
                packet = head + s('x' * (size - len(head) - 4))
                assert len(packet) == size, len(packet)
                return struct.pack('>i', len(packet)) + packet
            for size in (4096, 4100):
                sock = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=5)
                sock.sendall(frame(size))
                try:
                    data = sock.recv(65536)
                except socket.timeout:
                    data = b'timeout'
                print(size, 'error' if b'/sys/error' in data else 'closed' if data == b'' else repr(data[:40]))
            """
        let result = try Tool.run(Tool.system("python3"), ["-c", script, "\(server.port)"])
        #expect(result.stdout == "4096 error\n4100 closed\n", "\(result.stdout) \(result.stderr)")
        #expect(server.terminate() == 0)
    }

    /// Bundles timed an hour ahead wait in a bounded queue: thousands of them do not grow the
    /// server's memory without bound, and it goes on answering (9.12).
    @Test func manyFutureBundlesStayBounded() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--rate-limit", "1000000"])
        let keeper = try UDPTestPeer(server: server.port)
        #expect(keeper.request("/sys/ping", reply: "/sys/pong") != nil)
        let before = try #require(server.residentKilobytes)
        let senders = try (0..<4).map { _ in try UDPTestPeer(server: server.port) }
        let later = OSCTimeTag(secondsSince1970: Date().timeIntervalSince1970 + 3600)
        let padding = OSCMessage("/knob/pan/str", [.string(String(repeating: "x", count: 1000))])
        for index in 0..<20_000 {
            senders[index % 4].send(.bundle(OSCBundle(timeTag: later, [.message(padding)])))
            if index.isMultiple(of: 500) { Thread.sleep(forTimeInterval: 0.005) }
        }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(keeper.request("/sys/ping", reply: "/sys/pong") != nil)
        let after = try #require(server.residentKilobytes)
        // 20,000 KiB of bundles were sent; far less may be kept.
        #expect(after - before < 12 * 1024, "RSS grew from \(before) to \(after) KiB")
        #expect(server.terminate() == 0)
    }
}
