import OSCCore
import OSCTransport
import Testing

/// Real peers installed on the machine: python-osc and liblo's `oscsend`.
@Suite struct OSCInteropTests {
    /// A UDP or TCP server with a receiver that records `address args…` of each message.
    static func receivingLoop() -> (OSCEventLoop, Collector<String>, OSCReceiver) {
        let loop = OSCEventLoop()
        let got = Collector<String>()
        let receiver = OSCReceiver(loop: loop) { message, _, _ in
            let arguments = message.makeMessage().arguments.map { "\($0)" }
            got.append(([message.address] + arguments).joined(separator: " "))
        }
        return (loop, got, receiver)
    }

    @Test func pythonOSCClientToOurUDPServer() async throws {
        let (loop, got, receiver) = Self.receivingLoop()
        let server = try OSCUDPServer(host: "127.0.0.1", loop: loop)
        defer { server.close() }
        receiver.attach(to: server)
        let peer = try ExternalPeer.python(
            """
            import sys
            from pythonosc.udp_client import SimpleUDPClient
            c = SimpleUDPClient("127.0.0.1", int(sys.argv[1]))
            for i in range(50):
                c.send_message("/py/udp", [i, 0.5, "s"])
            """, [String(server.localAddress.port)])
        #expect(await peer.finished() == 0, "\(peer.text)")
        let messages = await got.wait(for: 50)
        #expect(messages.count == 50)
        #expect(messages.first == "/py/udp int32(0) float32(0.5) string(\"s\")")
    }

    @Test(arguments: ["1.0", "1.1"])
    func pythonOSCTCPClientToOurTCPServer(mode: String) async throws {
        let (loop, got, receiver) = Self.receivingLoop()
        let server = try OSCTCPServer(host: "127.0.0.1", loop: loop)
        defer { server.close() }
        let framings = Collector<String>()
        server.start(onFrame: { bytes, connection in
            framings.append(connection.framing?.description ?? "?")
            receiver.receive(bytes, from: .tcp(connection))
        })
        let peer = try ExternalPeer.python(
            """
            import sys
            from pythonosc.tcp_client import SimpleTCPClient
            c = SimpleTCPClient("127.0.0.1", int(sys.argv[1]), mode=sys.argv[2])
            for i in range(20):
                c.send_message("/py/tcp", [i, "x" * 300])
            c.close()
            """, [String(server.localAddress.port), mode])
        #expect(await peer.finished() == 0, "\(peer.text)")
        let messages = await got.wait(for: 20)
        #expect(messages.count == 20)
        #expect(messages.last?.hasPrefix("/py/tcp int32(19) string(") == true)
        #expect(Set(framings.all) == [mode == "1.0" ? "length-prefix" : "SLIP"])
    }

    @Test func oscsendToOurUDPServer() async throws {
        let (loop, got, receiver) = Self.receivingLoop()
        let server = try OSCUDPServer(host: "127.0.0.1", loop: loop)
        defer { server.close() }
        receiver.attach(to: server)
        let peer = try ExternalPeer(
            "oscsend", ["localhost", String(server.localAddress.port), "/liblo", "ifsT", "3", "1.5", "hello"])
        #expect(await peer.finished() == 0, "\(peer.text)")
        #expect(await got.wait(for: 1) == ["/liblo int32(3) float32(1.5) string(\"hello\") true"])
    }

    @Test func oscsendOverTCPToOurTCPServer() async throws {
        let (loop, got, receiver) = Self.receivingLoop()
        let server = try OSCTCPServer(host: "127.0.0.1", loop: loop)
        defer { server.close() }
        receiver.attach(to: server)
        let url = OSCURL(transport: .tcp, host: "127.0.0.1", port: server.localAddress.port)
        let peer = try ExternalPeer("oscsend", [url.description, "/liblo/tcp", "i", "7"])
        #expect(await peer.finished() == 0, "\(peer.text)")
        #expect(await got.wait(for: 1) == ["/liblo/tcp int32(7)"])
    }

    @Test func ourClientToPythonOSCServer() async throws {
        let peer = try ExternalPeer.python(
            """
            import sys
            from pythonosc.dispatcher import Dispatcher
            from pythonosc.osc_server import BlockingOSCUDPServer
            got = []
            def handler(address, *args):
                got.append((address, args))
            d = Dispatcher()
            d.set_default_handler(handler)
            s = BlockingOSCUDPServer(("127.0.0.1", 0), d)
            s.timeout = 10
            print(s.server_address[1], flush=True)
            while len(got) < 3:
                s.handle_request()
            for address, args in got:
                print(address, *args, flush=True)
            """)
        let portLine = try #require(await peer.firstLine())
        let port = try #require(UInt16(portLine))
        let client = try OSCUDPClient(url: OSCURL(transport: .udp, host: "127.0.0.1", port: port))
        defer { client.close() }
        for index in 0..<3 {
            try client.send(OSCMessage("/ours", [.int32(Int32(index)), .float32(0.25), .string("k")]).encoded())
        }
        #expect(await peer.finished() == 0, "\(peer.text)")
        #expect(peer.text == "\(port)\n/ours 0 0.25 k\n/ours 1 0.25 k\n/ours 2 0.25 k\n")
    }

    @Test func pythonOSCOverIPv6ToOurUDPServer() async throws {
        let (loop, got, receiver) = Self.receivingLoop()
        let server = try OSCUDPServer(host: "::1", loop: loop)
        defer { server.close() }
        receiver.attach(to: server)
        let peer = try ExternalPeer.python(
            """
            import sys, socket
            from pythonosc.udp_client import SimpleUDPClient
            c = SimpleUDPClient("::1", int(sys.argv[1]), family=socket.AF_INET6)
            c.send_message("/py/v6", 1)
            """, [String(server.localAddress.port)])
        #expect(await peer.finished() == 0, "\(peer.text)")
        #expect(await got.wait(for: 1) == ["/py/v6 int32(1)"])
    }
}
