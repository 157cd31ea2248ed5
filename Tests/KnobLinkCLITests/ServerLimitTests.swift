import Foundation
import OSCCore
import Testing

/// The limits of issue 9 items 4 to 6 against the real `knoblink serve` (PROTOCOL.md section 8):
/// links capped and kept inside the allow list, TCP slots and memory that no peer can hold.
@Suite(.serialized, .offThePool) struct ServerLimitTests {
    /// Every `/sys/stats` counter, gathered from the datagrams of one answer.
    static func statistics(_ peer: UDPTestPeer) -> [String: Int] {
        let mark = peer.messages.count
        peer.send("/sys/stats")
        peer.wait { $0.dropFirst(mark).contains { $0.address == "/sys/stats" } }
        Thread.sleep(forTimeInterval: 0.3)
        var result: [String: Int] = [:]
        for message in peer.messages.dropFirst(mark) where message.address == "/sys/stats" {
            var arguments = message.arguments[...]
            while case .string(let name)? = arguments.first, case .int32(let value)? = arguments.dropFirst().first {
                result[name] = Int(value)
                arguments = arguments.dropFirst(2)
            }
        }
        return result
    }

    static func descriptors(_ server: ServeProcess) -> Int {
        guard let pid = server.pid else { return -1 }
        return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    static func python(_ script: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(Tool.system("python3"), ["-u", "-c", script] + arguments)
    }

    /// Item 4: 300 `/sys/link osc.tcp://` urls to listeners that accept every connection add 16
    /// links and 16 outbound connections, not 300.
    @Test func linksAreCappedAndTheirConnectionsWithThem() throws {
        let listeners = try Self.python(
            """
            import select, socket, sys, time
            ls = []
            for _ in range(300):
                s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(64); s.setblocking(False); ls.append(s)
            print(' '.join(str(s.getsockname()[1]) for s in ls))
            kept = []
            end = time.time() + 30
            while time.time() < end:
                ready, _, _ = select.select(ls, [], [], 0.2)
                for s in ready:
                    try:
                        kept.append(s.accept()[0])
                    except OSError:
                        pass
            """, [])
        defer { listeners.stop() }
        #expect(listeners.wait(timeout: .seconds(10)) { $0.stdout.contains("\n") })
        let ports = listeners.stdout.split(separator: "\n").first?.split(separator: " ").compactMap { UInt16($0) } ?? []
        #expect(ports.count == 300)
        let server = try ServeProcess(["--feedback-port", "auto"])
        let peer = try UDPTestPeer(server: server.port)
        let before = Self.descriptors(server)
        for (index, port) in ports.enumerated() {
            peer.send("/sys/link", [.string("osc.tcp://127.0.0.1:\(port)/"), .int32(0)])
            if index.isMultiple(of: 50) { Thread.sleep(forTimeInterval: 0.05) }
        }
        Thread.sleep(forTimeInterval: 1.5)
        let after = Self.descriptors(server)
        #expect(after - before <= 16 + 4, "descriptors went from \(before) to \(after)")
        let stats = Self.statistics(peer)
        #expect(stats["links"] == 16, "\(stats)")
        #expect(stats["linksRefused"] == 284, "\(stats)")
        #expect(
            peer.messages.contains { $0.address == "/sys/error" && $0.strings.last?.contains("--max-links") == true })
        #expect(peer.request("/sys/ping", reply: "/sys/pong") != nil)
        #expect(server.terminate() == 0)
    }

    /// Item 4: `--max-links` sets the cap, and a peer's link to a port where nothing listens (TCP
    /// or UDP) is pruned once it has failed four times in a row.
    @Test func maxLinksFlagAndUnreachableLinksArePruned() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--max-links", "2"])
        let peer = try UDPTestPeer(server: server.port)
        let closed = try Peers.freePort(tcp: true)
        peer.send("/sys/link", [.string("osc.tcp://127.0.0.1:\(closed)/"), .int32(0)])
        #expect(peer.wait(timeout: .seconds(10)) { _ in Self.statistics(peer)["linksPruned"] == 1 })
        #expect(
            server.stderr.contains("link to osc.tcp://127.0.0.1:\(closed)/ removed: could not connect"),
            "\(server.stderr)")
        // A UDP link to a port where nothing listens: each forwarded change comes back as an
        // ICMP port unreachable, and the fourth prunes it.
        let deaf = try Peers.freePort()
        peer.send("/sys/link", [.string("osc.udp://127.0.0.1:\(deaf)/"), .int32(0)])
        for value in [0.1, 0.2, 0.3, 0.4, 0.5] as [Float] {
            Thread.sleep(forTimeInterval: 0.1)
            peer.send("/knob/pan", value)
        }
        #expect(peer.wait(timeout: .seconds(5)) { _ in Self.statistics(peer)["linksPruned"] == 2 })
        #expect(server.stderr.contains("link to osc.udp://127.0.0.1:\(deaf)/ removed: unreachable"), "\(server.stderr)")
        for port: UInt16 in [1, 2, 3] { peer.send("/sys/link", [.string("osc.udp://127.0.0.1:\(port)/"), .int32(0)]) }
        Thread.sleep(forTimeInterval: 0.3)
        let stats = Self.statistics(peer)
        #expect(stats["links"] == 2 && stats["linksRefused"] == 1, "\(stats)")
        #expect(server.terminate() == 0)
    }

    /// The url of `/sys/link` must be inside `--allow`: refused with `/sys/error` and counted.
    @Test func linkOutsideTheAllowListIsRefused() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--allow", "127.0.0.1/32"])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/sys/link", [.string("osc.udp://127.0.0.2:9/"), .int32(0)])
        let error = peer.waitForMessage("/sys/error")
        #expect(error?.strings.last?.contains("--allow") == true, "\(String(describing: error))")
        let stats = Self.statistics(peer)
        #expect(stats["links"] == 0 && stats["linksDisallowed"] == 1, "\(stats)")
        #expect(server.terminate() == 0)
    }

    /// Item 5: with every TCP slot held by a connection that went quiet, a new client is served
    /// (the one idle longest gives way), and one that sends no frame is closed in time, with a
    /// log line that says why.
    @Test func idleConnectionsAtTheCapGiveWayAndSilentOnesTimeOut() throws {
        let server = try ServeProcess(["--feedback-port", "auto", "--max-peers", "8", "--first-frame-timeout", "1"])
        let script = """
            import socket, struct, sys, time
            port = int(sys.argv[1])
            def s(x):
                b = x.encode() + b'\\0'
                return b + b'\\0' * ((4 - len(b) % 4) % 4)
            ping = s('/sys/ping') + s(',')
            frame = struct.pack('>i', len(ping)) + ping
            held = []
            for _ in range(8):
                c = socket.create_connection(('127.0.0.1', port), timeout=5)
                c.sendall(frame)
                assert b'/sys/pong' in c.recv(4096)
                held.append(c)
            time.sleep(1.5)
            new = socket.create_connection(('127.0.0.1', port), timeout=5)
            new.sendall(frame)
            try:
                print('served' if b'/sys/pong' in new.recv(4096) else 'no pong')
            except OSError as e:
                print('closed', e)
            silent = socket.create_connection(('127.0.0.1', port), timeout=5)
            start = time.time()
            try:
                data = silent.recv(4096)
            except OSError:
                data = b''
            print('silent closed' if data == b'' and time.time() - start < 4 else 'silent open')
            """
        let result = try Tool.run(Tool.system("python3"), ["-c", script, "\(server.port)"])
        #expect(result.stdout == "served\nsilent closed\n", "\(result.stdout) \(result.stderr)")
        let peer = try UDPTestPeer(server: server.port)
        let stats = Self.statistics(peer)
        #expect(stats["tcpEvicted"] ?? 0 >= 1, "\(stats)")
        #expect(stats["tcpFirstFrameTimeouts"] == 1, "\(stats)")
        #expect(server.stderr.contains("closed before its first frame: no complete frame in time"), "\(server.stderr)")
        #expect(server.terminate() == 0)
    }

    /// Item 6: 24 connections each holding most of a large unfinished frame. The server keeps
    /// them under one budget (16 MiB by default) by closing the largest, its memory stays
    /// bounded, and it goes on answering.
    @Test func partialFramesShareOneBudgetAndTheLargestIsClosed() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let before = try #require(server.residentKilobytes)
        let script = """
            import socket, struct, sys, time
            port = int(sys.argv[1])
            conns = []
            for i in range(24):
                c = socket.create_connection(('127.0.0.1', port), timeout=5)
                size = 600 * 1024 + i * 10 * 1024
                try:
                    c.sendall(struct.pack('>i', 1 << 20) + b'\\x2f' * size)
                except OSError:
                    pass
                conns.append(c)
                time.sleep(0.05)
            time.sleep(0.5)
            closed = []
            for i, c in enumerate(conns):
                c.setblocking(False)
                try:
                    if c.recv(1) == b'':
                        closed.append(i)
                except BlockingIOError:
                    pass
                except OSError:
                    closed.append(i)
            print(' '.join(map(str, closed)))
            sys.stdout.flush()
            time.sleep(1)
            """
        let peers = try Self.python(script, ["\(server.port)"])
        defer { peers.stop() }
        #expect(peers.wait(timeout: .seconds(20)) { $0.stdout.contains("\n") }, "\(peers.stderr)")
        let closed = (peers.stdout.split(separator: "\n").first ?? "").split(separator: " ").compactMap { Int($0) }
        // The first 23 connections fit (600 KiB + i × 10 KiB each, 16,330 KiB in all); the last
        // does not, and the largest holder then (itself, or the one before while it is still
        // arriving) is closed.
        #expect(!closed.isEmpty && closed.allSatisfy { $0 >= 18 }, "closed \(closed)")
        let peer = try UDPTestPeer(server: server.port)
        let stats = Self.statistics(peer)
        #expect(stats["tcpInputBudgetClosed"] == closed.count, "\(stats)")
        #expect((stats["tcpBufferedBytes"] ?? .max) <= 16 << 20, "\(stats)")
        #expect(peer.request("/sys/ping", reply: "/sys/pong") != nil)
        let after = try #require(server.residentKilobytes)
        #expect(after - before < 48 * 1024, "RSS grew from \(before) to \(after) KiB")
        #expect(server.terminate() == 0)
    }

    /// Item 16: a connection that speaks neither OSC framing nor HTTP is closed with a log line
    /// naming its first bytes (HTTP is answered: KnobLinkTests' HTTPServerTests).
    @Test func otherProtocolClosesWithALogLine() throws {
        let server = try ServeProcess(["--feedback-port", "auto"])
        let script = """
            import socket, sys
            c = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=5)
            c.sendall(b'ssh-2.0-OpenSSH\\r\\n')
            print('closed' if c.recv(4096) == b'' else 'open')
            """
        let result = try Tool.run(Tool.system("python3"), ["-c", script, "\(server.port)"])
        #expect(result.stdout == "closed\n", "\(result.stdout) \(result.stderr)")
        #expect(server.process.wait(timeout: .seconds(5)) { $0.stderr.contains("\"ssh-2.0-\"") }, "\(server.stderr)")
        #expect(server.terminate() == 0)
    }

    /// Item 16, KnobLink to liblo: `oscdump` on TCP (liblo's server) reads the SLIP that
    /// `knoblink send` and a TCP link send, a bundle first included.
    @Test func oscdumpReadsKnobLinkSLIPWithABundleFirst() throws {
        let (dump, port) = try Peers.oscdump(tcp: true)
        defer { dump.stop() }
        let sent = try Tool.knoblink(
            "send", "--framing", "slip", "--bundle", "osc.tcp://127.0.0.1:\(port)/", "-", input: "/a i 1\n/b f 0.5\n")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(Peers.waitForLines(dump, 2), "\(dump.stdout)")
        #expect(Peers.withoutTimeTags(dump.stdout) == ["/a i 1", "/b f 0.500000"], "\(dump.stdout)")
        let (linked, linkPort) = try Peers.oscdump(tcp: true)
        defer { linked.stop() }
        let server = try ServeProcess(["--feedback-port", "auto", "--link-one-way", "osc.tcp://127.0.0.1:\(linkPort)/"])
        Thread.sleep(forTimeInterval: 0.5)
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/knob/pan", 0.25)
        #expect(linked.wait(timeout: .seconds(5)) { $0.stdout.contains("/knob/pan f 0.250000") }, "\(linked.stdout)")
        #expect(linked.stdout.contains("/sys/via"), "\(linked.stdout)")
        #expect(server.terminate() == 0)
    }
}
