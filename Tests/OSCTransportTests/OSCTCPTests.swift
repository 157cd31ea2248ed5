import Foundation
import OSCCore
import OSCTransport
import Testing

@Suite struct OSCTCPTests {
    static let localhost = OSCSocketAddress(numericHost: "127.0.0.1", port: 0)!

    /// An echo server that records each connection's framing and close reason.
    static func echoServer(options: OSCTCPOptions = OSCTCPOptions()) throws -> (
        OSCTCPServer, Collector<OSCFraming?>, Collector<OSCTCPCloseReason>
    ) {
        let server = try OSCTCPServer(host: "127.0.0.1", options: options)
        let framings = Collector<OSCFraming?>()
        let closes = Collector<OSCTCPCloseReason>()
        server.start(
            onFrame: { bytes, connection in
                framings.append(connection.framing)
                connection.send(Array(bytes))
            },
            onClose: { _, reason in closes.append(reason) })
        return (server, framings, closes)
    }

    static func address(of server: OSCTCPServer) -> OSCSocketAddress {
        OSCSocketAddress(numericHost: "127.0.0.1", port: server.localAddress.port)!
    }

    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func echoesFramesInBothFramings(framing: OSCFraming) async throws {
        let (server, framings, _) = try Self.echoServer()
        defer { server.close() }
        let replies = Collector<[UInt8]>()
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: framing, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { connection.close() }
        let packets: [[UInt8]] = [[1, 2, 3, 4], [0xC0, 0xDB, 0, 0], [UInt8](repeating: 0xC0, count: 5000)]
        for packet in packets { connection.send(packet) }
        #expect(await replies.wait(for: 3) == packets)
        #expect(framings.all.allSatisfy { $0 == framing })
    }

    // liblo's TCP tests send a frame in pieces: 13 bytes, 20 bytes, then the rest.
    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func readsFramesArrivingInPieces(framing: OSCFraming) async throws {
        let (server, _, _) = try Self.echoServer()
        defer { server.close() }
        let replies = Collector<[UInt8]>()
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: framing, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { connection.close() }
        let packet = (0..<64).map { UInt8($0) }
        let framed = framing.encode(packet)
        for range in [0..<13, 13..<33, 33..<framed.count] {
            connection.write(Array(framed[range]))
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await replies.wait(for: 1) == [packet])
    }

    @Test func singleEndSLIPSendersAreRead() async throws {
        let (server, _, _) = try Self.echoServer()
        defer { server.close() }
        let replies = Collector<[UInt8]>()
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { connection.close() }
        // The first END selects SLIP; after it, frames end with a single END only.
        connection.write([0xC0, 1, 2, 0xC0, 3, 4, 0xC0])
        #expect(await replies.wait(for: 2) == [[1, 2], [3, 4]])
    }

    @Test func otherProtocolsAreHandedOverWithTheirFirstBytes() async throws {
        let server = try OSCTCPServer(host: "127.0.0.1")
        defer { server.close() }
        let handedOver = Collector<String>()
        server.start(
            onFrame: { _, _ in Issue.record("an HTTP request was read as OSC") },
            onOtherProtocol: { connection, bytes in
                handedOver.append(String(decoding: bytes, as: UTF8.self))
                connection.setRawHandler { more in handedOver.append(String(decoding: more, as: UTF8.self)) }
                // The reply is length-prefixed only so that the test's OSC client can read it.
                connection.write(OSCFraming.lengthPrefix.encode(Array("HTTP/1.1 200 OK".utf8)))
            })
        let replies = Collector<String>()
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .lengthPrefix,
            onFrame: { bytes, _ in replies.append(String(decoding: bytes, as: UTF8.self)) })
        defer { connection.close() }
        connection.write(Array("GET / HTTP/1.1\r\n".utf8))
        #expect(await replies.wait(for: 1) == ["HTTP/1.1 200 OK"])
        connection.write(Array("Host: x\r\n\r\n".utf8))
        let texts = await handedOver.wait(for: 2)
        #expect(texts.joined() == "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    }

    @Test func otherProtocolsAreClosedWithoutAHandler() async throws {
        let (server, _, closes) = try Self.echoServer()
        defer { server.close() }
        let clientCloses = Collector<OSCTCPCloseReason>()
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { _, _ in },
            onClose: { _, reason in clientCloses.append(reason) })
        connection.write(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(await closes.wait(for: 1) == [.otherProtocolRefused])
        #expect(await clientCloses.wait(for: 1) == [.peerClosed])
    }

    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func anOversizedFrameClosesOnlyItsConnection(framing: OSCFraming) async throws {
        var options = OSCTCPOptions()
        options.maximumFrameLength = 1024
        let (server, _, closes) = try Self.echoServer(options: options)
        defer { server.close() }
        let good = Collector<[UInt8]>()
        let goodConnection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: framing, onFrame: { bytes, _ in good.append(Array(bytes)) })
        defer { goodConnection.close() }
        let bad = try await OSCTCPClient.connect(to: Self.address(of: server), framing: framing, onFrame: { _, _ in })
        defer { bad.close() }
        goodConnection.send([1, 2, 3, 4])
        #expect(await good.wait(for: 1).count == 1)
        bad.send([UInt8](repeating: 7, count: 1025))
        let reasons = await closes.wait(for: 1)
        guard case .framingError(.frameTooLarge(_, 1024))? = reasons.first else {
            Issue.record("expected frameTooLarge, got \(reasons)")
            return
        }
        goodConnection.send([5, 6, 7, 8])
        #expect(await good.wait(for: 2) == [[1, 2, 3, 4], [5, 6, 7, 8]])
    }

    @Test func aHugeLengthPrefixClosesTheConnectionAtOnce() async throws {
        let (server, _, closes) = try Self.echoServer()
        defer { server.close() }
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .lengthPrefix, onFrame: { _, _ in })
        defer { connection.close() }
        connection.write([0x00, 0xFF, 0xFF, 0xFF])
        #expect(await closes.wait(for: 1) == [.framingError(.frameTooLarge(length: 0xFF_FFFF, limit: 1 << 20))])
    }

    @Test func aPeerThatStopsReadingIsDroppedWithoutSlowingOthers() async throws {
        var options = OSCTCPOptions()
        options.maximumQueuedBytes = 1 << 20
        let server = try OSCTCPServer(host: "127.0.0.1", options: options)
        defer { server.close() }
        let closes = Collector<OSCTCPCloseReason>()
        let chunk = [UInt8](repeating: 0x55, count: 60_000)
        server.start(
            onFrame: { bytes, connection in
                if bytes.first == 0xFF {
                    // Flood: far more than the socket buffers and the write queue hold.
                    for _ in 0..<400 { connection.send(chunk) }
                } else {
                    connection.send(Array(bytes))
                }
            },
            onClose: { _, reason in closes.append(reason) })

        // The stalled peer's loop is kept busy, so it never reads.
        let stalledLoop = OSCEventLoop(label: "stalled")
        let stalled = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, loop: stalledLoop, onFrame: { _, _ in })
        defer { stalled.close() }
        // Sent before the stall, on the same serial queue, so it leaves before the loop stops reading.
        stalled.send([0xFF])
        // The stalled loop stays blocked until the other peer is done: if the server waited for the
        // stalled peer to read, the other peer's round trips could never complete.
        let release = DispatchSemaphore(value: 0)
        stalledLoop.execute { _ = release.wait(timeout: .now() + 60) }
        defer { release.signal() }

        let replies = Collector<[UInt8]>()
        let other = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { other.close() }
        for index in 0..<200 {
            other.send([UInt8(truncatingIfNeeded: index), 0, 0, 0])
            await replies.wait(for: index + 1, seconds: 10)
        }
        #expect(replies.count == 200)
        #expect(await closes.wait(for: 1, seconds: 10).first == .writeQueueOverflow)
        release.signal()
    }

    @Test func framesArriveAsAnAsyncStream() async throws {
        let server = try OSCTCPServer(host: "127.0.0.1")
        let frames = server.frames()
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .lengthPrefix, onFrame: { _, _ in })
        defer { connection.close() }
        connection.send([1, 2, 3, 4])
        connection.send([5, 6, 7, 8])
        var received: [[UInt8]] = []
        for await frame in frames {
            received.append(frame.bytes)
            if received.count == 2 { server.close() }
        }
        #expect(received == [[1, 2, 3, 4], [5, 6, 7, 8]])
    }

    @Test func connectionsOverTheCapAreClosedAtOnce() async throws {
        var options = OSCTCPOptions()
        options.maximumConnections = 1
        // Refused, not made room for, however long the first one has been idle.
        options.idleEviction = nil
        let (server, _, _) = try Self.echoServer(options: options)
        defer { server.close() }
        let replies = Collector<[UInt8]>()
        let first = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { bytes, _ in replies.append(Array(bytes)) })
        defer { first.close() }
        first.send([1, 1, 1, 1])
        #expect(await replies.wait(for: 1).count == 1)
        let closes = Collector<OSCTCPCloseReason>()
        let second = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { _, _ in Issue.record("over the cap") },
            onClose: { _, reason in closes.append(reason) })
        defer { second.close() }
        second.send([2, 2, 2, 2])
        #expect(await closes.wait(for: 1).first != nil)
        first.send([3, 3, 3, 3])
        #expect(await replies.wait(for: 2) == [[1, 1, 1, 1], [3, 3, 3, 3]])
    }

    @Test func aPeerThatClosesIsDropped() async throws {
        let (server, _, closes) = try Self.echoServer()
        defer { server.close() }
        let connection = try await OSCTCPClient.connect(
            to: Self.address(of: server), framing: .slip, onFrame: { _, _ in })
        connection.send([1, 2, 3, 4])
        try await Task.sleep(for: .milliseconds(50))
        connection.close()
        #expect(await closes.wait(for: 1) == [.peerClosed])
    }

    @Test func connectingToAClosedPortFails() async throws {
        let server = try OSCTCPServer(host: "127.0.0.1")
        let address = Self.address(of: server)
        server.close()
        try await Task.sleep(for: .milliseconds(50))
        await #expect(throws: OSCSystemError.self) {
            _ = try await OSCTCPClient.connect(to: address, onFrame: { _, _ in })
        }
    }
}
