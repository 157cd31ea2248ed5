import Foundation
import OSCCore
import Testing

@testable import KnobLink

/// WebSocket peers on the server's TCP port (PROTOCOL.md section 7), framed by hand as RFC 6455
/// says a client frames: the handshake, binary OSC both ways, control frames, the limits.
@Suite struct WebSocketPeerTests {
    func open(_ fixture: ServerFixture) async throws -> RawTCPClient {
        let client = try RawTCPClient(port: fixture.port)
        let response = try #require(await client.openWebSocket(path: "/anything"))
        #expect(response.status == 101)
        // RFC 6455 section 1.3's example key and its accept value.
        #expect(response.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        return client
    }

    static func messages(_ frames: [WebSocketTesting.Frame]) -> [OSCMessage] {
        frames.filter { $0.opcode == 2 }.compactMap {
            guard case .message(let message)? = try? OSCPacket.decode($0.payload) else { return nil }
            return message
        }
    }

    @Test func binaryFramesAreOSCPacketsOfAPeer() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        client.send(WebSocketTesting.binary(OSCMessage("/knob/gain", [.float32(0.25)]).encoded()))
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        let frames = await client.frames { Self.messages($0).contains { $0.address == "/sys/pong" } }
        #expect(Self.messages(frames).contains { $0.address == "/sys/pong" })
        let gain = fixture.tree.parameter(forKeyPath: "knob.gain")!
        #expect(abs(gain.normalizedValue - 0.25) < 1e-6)
        #expect(fixture.statistic("webSocketsOpened") == 1)
    }

    @Test func aWebSocketPeerIsNeverSubscribedImplicitly() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        client.send(WebSocketTesting.binary(OSCMessage("/knob/gain", [.float32(0.25)]).encoded()))
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        _ = await client.frames { Self.messages($0).contains { $0.address == "/sys/pong" } }
        client.consume(client.bytes.count)
        fixture.tree.parameter(forKeyPath: "knob.pan")!.setValue(10)
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        let frames = await client.frames { Self.messages($0).contains { $0.address == "/sys/pong" } }
        #expect(Self.messages(frames).map(\.address) == ["/sys/pong"])
    }

    @Test func repliesThatWouldBeBundlesComeOneMessageAFrame() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        client.send(WebSocketTesting.binary(OSCMessage("/sys/list").encoded()))
        let frames = await client.frames {
            Self.messages($0).contains { $0.address == "/sys/update" && $0.arguments == [.int32(0)] }
        }
        let messages = Self.messages(frames)
        let parameters = fixture.tree.allParameters.count
        #expect(messages.filter { $0.address == "/sys/param" }.count == parameters)
        #expect(frames.allSatisfy { $0.payload.first != UInt8(ascii: "#") })
    }

    @Test func anEmptyURLOnAWebSocketIsTheConnection() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        client.send(WebSocketTesting.binary(OSCMessage("/wave/sub", [.string(""), .int32(16)]).encoded()))
        let frames = await client.frames { Self.messages($0).contains { $0.address == "/wave/progress" } }
        let addresses = Set(Self.messages(frames).map(\.address))
        #expect(addresses.isSuperset(of: ["/wave/info", "/wave/playing", "/wave/progress"]))
        #expect(fixture.statistic("waveSubscribers") == 1)
        client.finishSending()
        #expect(await WaveTesting.eventually { fixture.statistic("waveSubscribers") == 0 })
    }

    @Test func pingIsAnsweredWithPongAndCloseWithClose() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        client.send(WebSocketTesting.frame(opcode: 9, Array("hello".utf8)))
        let pong = await client.frames { $0.contains { $0.opcode == 10 } }
        #expect(pong.first { $0.opcode == 10 }?.payload == Array("hello".utf8))
        client.consume(client.bytes.count)
        client.send(WebSocketTesting.frame(opcode: 8, [0x03, 0xE8]))
        let close = await client.frames { $0.contains { $0.opcode == 8 } }
        #expect(close.first { $0.opcode == 8 }?.payload.prefix(2) == [0x03, 0xE8])
        #expect(await client.waitForClose())
    }

    @Test func fragmentedMessagesAreJoined() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        let packet = OSCMessage("/sys/ping").encoded()
        client.send(WebSocketTesting.frame(opcode: 2, Array(packet[..<5]), fin: false))
        client.send(WebSocketTesting.frame(opcode: 9, []))
        client.send(WebSocketTesting.frame(opcode: 0, Array(packet[5...])))
        let frames = await client.frames { Self.messages($0).contains { $0.address == "/sys/pong" } }
        #expect(Self.messages(frames).contains { $0.address == "/sys/pong" })
    }

    @Test func anUnmaskedFrameClosesWith1002() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        client.send(WebSocketTesting.frame(opcode: 2, OSCMessage("/sys/ping").encoded(), masked: false))
        let frames = await client.frames { $0.contains { $0.opcode == 8 } }
        #expect(frames.first { $0.opcode == 8 }?.payload.prefix(2) == [0x03, 0xEA])
        #expect(await client.waitForClose())
        #expect(fixture.statistic("webSocketErrors") == 1)
    }

    @Test func aMessageOverMaxFrameClosesWith1009() async throws {
        let fixture = try ServerFixture { $0.maxFrameLength = 1024 }
        let client = try await open(fixture)
        client.send(WebSocketTesting.binary([UInt8](repeating: 0x2F, count: 2000)))
        let frames = await client.frames { $0.contains { $0.opcode == 8 } }
        #expect(frames.first { $0.opcode == 8 }?.payload.prefix(2) == [0x03, 0xF1])
        #expect(await client.waitForClose())
        #expect(fixture.statistic("oversizedFrame") == 1)
    }

    @Test func malformedOSCInAFrameGetsSysErrorAndTheConnectionGoesOn() async throws {
        let fixture = try ServerFixture()
        let client = try await open(fixture)
        client.send(WebSocketTesting.binary([0x2F, 0x78, 0x00]))
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        let frames = await client.frames { Self.messages($0).contains { $0.address == "/sys/pong" } }
        let messages = Self.messages(frames)
        #expect(messages.first?.address == "/sys/error")
        #expect(messages.contains { $0.address == "/sys/pong" })
    }
}

/// OSCQuery over the server's port: the namespace by HTTP and LISTEN/IGNORE on a WebSocket.
@Suite struct OSCQueryServerTests {
    static func values(_ frames: [WebSocketTesting.Frame], _ address: String) -> [Float] {
        WebSocketPeerTests.messages(frames).filter { $0.address == address }.compactMap {
            if case .float32(let value)? = $0.arguments.first { return value }
            return nil
        }
    }

    @Test func theNamespaceAndHostInfoAreServed() async throws {
        let fixture = try ServerFixture { $0.name = "studio" }
        fixture.tree.parameter(forKeyPath: "knob.gain")!.setNormalizedValue(0.5, originator: nil)
        let client = try RawTCPClient(port: fixture.port)
        let root = try #require(await client.request("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(root.status == 200)
        let json = try #require(root.json as? [String: Any])
        #expect(json["FULL_PATH"] as? String == "/")
        let contents = try #require(json["CONTENTS"] as? [String: Any])
        #expect(contents["sys"] == nil && contents["wave"] == nil)
        let value = try #require(await client.request("GET /knob/gain?VALUE HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(((value.json as? [String: Any])?["VALUE"] as? [Double])?.first.map { abs($0 - 0.5) < 1e-6 } == true)
        let info = try #require(await client.request("GET /?HOST_INFO HTTP/1.1\r\nHost: x\r\n\r\n"))
        let host = try #require(info.json as? [String: Any])
        #expect(host["NAME"] as? String == "studio")
        #expect(host["OSC_PORT"] as? Int == Int(fixture.port))
        #expect(host["OSC_IP"] as? String == "127.0.0.1")
        let extensions = try #require(host["EXTENSIONS"] as? [String: Bool])
        #expect(extensions["LISTEN"] == true && extensions["LISTEN_CONTAINER"] == true)
        #expect(extensions["PATH_ADDED"] == true && extensions["PATH_REMOVED"] == true)
        #expect(await client.request("GET /knob/gain?NOPE HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 400)
        #expect(await client.request("DELETE /knob HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 405)
    }

    @Test func listenSendsTheValueAtOnceThenEveryChange() async throws {
        let fixture = try ServerFixture()
        let gain = fixture.tree.parameter(forKeyPath: "knob.gain")!
        gain.setNormalizedValue(0.25, originator: nil)
        let client = try RawTCPClient(port: fixture.port)
        #expect(await client.openWebSocket()?.status == 101)
        client.send(WebSocketTesting.text(#"{"COMMAND":"LISTEN","DATA":"/knob/gain"}"#))
        var frames = await client.frames { !Self.values($0, "/knob/gain").isEmpty }
        #expect(Self.values(frames, "/knob/gain") == [0.25])
        #expect(WebSocketPeerTests.messages(frames).allSatisfy { $0.address == "/knob/gain" })
        let udp = try fixture.peer()
        udp.send("/knob/gain", [.float32(0.75)])
        udp.send("/knob/pan", [.float32(0.1)])
        frames = await client.frames { Self.values($0, "/knob/gain").contains(0.75) }
        #expect(Self.values(frames, "/knob/gain") == [0.25, 0.75])
        #expect(Self.values(frames, "/knob/pan").isEmpty)
        client.consume(client.bytes.count)
        client.send(WebSocketTesting.text(#"{"COMMAND":"IGNORE","DATA":"/knob/gain"}"#))
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        _ = await client.frames { WebSocketPeerTests.messages($0).contains { $0.address == "/sys/pong" } }
        udp.send("/knob/gain", [.float32(0.5)])
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        frames = await client.frames {
            WebSocketPeerTests.messages($0).filter { $0.address == "/sys/pong" }.count == 2
        }
        #expect(Self.values(frames, "/knob/gain").isEmpty)
    }

    @Test func listenOfAContainerOrTheRootCoversEverythingBelow() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        #expect(await client.openWebSocket()?.status == 101)
        client.send(WebSocketTesting.text(#"{"COMMAND":"LISTEN","DATA":"/knob/"}"#))
        let knobs = fixture.tree.allParameters.filter { $0.oscAddress.hasPrefix("/knob/") }.count
        var frames = await client.frames { WebSocketPeerTests.messages($0).count >= knobs }
        #expect(Set(WebSocketPeerTests.messages(frames).map(\.address)).count == knobs)
        client.consume(client.bytes.count)
        client.send(WebSocketTesting.text(#"{"COMMAND":"LISTEN","DATA":"/"}"#))
        let all = fixture.tree.allParameters.count
        frames = await client.frames { WebSocketPeerTests.messages($0).count >= all }
        #expect(Set(WebSocketPeerTests.messages(frames).map(\.address)).count == all)
    }

    @Test func theClientsOwnChangeIsNotEchoedButACorrectionIs() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        #expect(await client.openWebSocket()?.status == 101)
        client.send(WebSocketTesting.text(#"{"COMMAND":"LISTEN","DATA":"/"}"#))
        let all = fixture.tree.allParameters.count
        _ = await client.frames { WebSocketPeerTests.messages($0).count >= all }
        client.consume(client.bytes.count)
        // E2: no echo of its own set; E3: a value out of range comes back corrected.
        client.send(WebSocketTesting.binary(OSCMessage("/knob/gain", [.float32(0.3)]).encoded()))
        client.send(WebSocketTesting.binary(OSCMessage("/knob/pan", [.float32(1.7)]).encoded()))
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        let frames = await client.frames { WebSocketPeerTests.messages($0).contains { $0.address == "/sys/pong" } }
        #expect(Self.values(frames, "/knob/gain").isEmpty)
        #expect(Self.values(frames, "/knob/pan") == [1])
    }

    @Test func badCommandsAreCountedAndTheConnectionGoesOn() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        #expect(await client.openWebSocket()?.status == 101)
        for text in ["not json", #"{"COMMAND":"FLY"}"#, #"{"COMMAND":"LISTEN","DATA":"/no/such"}"#, "[]"] {
            client.send(WebSocketTesting.text(text))
        }
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        let frames = await client.frames { WebSocketPeerTests.messages($0).contains { $0.address == "/sys/pong" } }
        #expect(WebSocketPeerTests.messages(frames).map(\.address) == ["/sys/pong"])
        #expect(fixture.statistic("webSocketBadCommands") == 4)
    }

    @Test func startOSCStreamingSendsTheListenedValuesOverUDP() async throws {
        let fixture = try ServerFixture()
        let listener = try fixture.peer()
        let port = listener.client.localAddress.port
        let client = try RawTCPClient(port: fixture.port)
        #expect(await client.openWebSocket()?.status == 101)
        client.send(WebSocketTesting.text(#"{"COMMAND":"LISTEN","DATA":"/knob/gain"}"#))
        _ = await client.frames { !Self.values($0, "/knob/gain").isEmpty }
        client.send(
            WebSocketTesting.text(
                #"{"COMMAND":"START_OSC_STREAMING","DATA":{"LOCAL_SERVER_PORT":\#(port),"LOCAL_SENDER_PORT":0}}"#))
        client.send(WebSocketTesting.binary(OSCMessage("/sys/ping").encoded()))
        _ = await client.frames { WebSocketPeerTests.messages($0).contains { $0.address == "/sys/pong" } }
        fixture.tree.parameter(forKeyPath: "knob.gain")!.setNormalizedValue(0.9, originator: nil)
        let streamed = await listener.next("/knob/gain")
        #expect(streamed?.float.map { abs($0 - 0.9) < 1e-6 } == true)
    }
}
