import OSCCore
import OSCTransport
import Testing

@Suite struct OSCReceiverTests {
    struct Delivery: Sendable {
        var address: String
        var at: ContinuousClock.Instant
    }

    static func bundle(_ timeTag: OSCTimeTag, _ address: String) -> [UInt8] {
        OSCPacket.bundle(OSCBundle(timeTag: timeTag, [.message(OSCMessage(address, [.int32(1)]))])).encoded()
    }

    @Test func deliversBundlesAtTheirTime() async throws {
        let loop = OSCEventLoop()
        let server = try OSCUDPServer(host: "127.0.0.1", loop: loop)
        defer { server.close() }
        let deliveries = Collector<Delivery>()
        let receiver = OSCReceiver(loop: loop) { message, _, _ in
            deliveries.append(Delivery(address: message.address, at: .now))
        }
        receiver.attach(to: server)
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        let now = OSCReceiver.now()
        let later = OSCTimeTag(secondsSince1970: now.secondsSince1970 + 0.3)
        let past = OSCTimeTag(secondsSince1970: now.secondsSince1970 - 5)
        let sent = ContinuousClock.now
        try client.send(Self.bundle(later, "/later"))
        try client.send(Self.bundle(past, "/past"))
        try client.send(Self.bundle(.immediately, "/now"))
        try client.send(OSCMessage("/bare").encoded())
        let got = await deliveries.wait(for: 4, seconds: 10)
        // Order shows that due messages are not held behind the future bundle; the lower bound shows that
        // the future bundle is not delivered early (a scheduler guarantee, not a speed claim).
        #expect(got.map(\.address) == ["/past", "/now", "/bare", "/later"])
        let lateDelay = try #require(got.last).at - sent
        #expect(lateDelay >= .milliseconds(280))
    }

    @Test func reportsMalformedPacketsAndRefusesFarFutureBundles() async throws {
        let loop = OSCEventLoop()
        let server = try OSCUDPServer(host: "127.0.0.1", loop: loop)
        defer { server.close() }
        let errors = Collector<OSCReceiveError>()
        let receiver = OSCReceiver(loop: loop, maximumDelay: 10, onError: { error, _ in errors.append(error) }) {
            _, _, _ in Issue.record("nothing should be delivered")
        }
        receiver.attach(to: server)
        let client = try OSCUDPClient(remote: server.localAddress)
        defer { client.close() }
        try client.send([0x2F, 0x61, 0x00])
        let farAway = OSCTimeTag(secondsSince1970: OSCReceiver.now().secondsSince1970 + 3600)
        try client.send(Self.bundle(farAway, "/far"))
        let got = await errors.wait(for: 2)
        #expect(got.count == 2)
        if case .malformed = got.first {} else { Issue.record("expected a decoding error first, got \(got)") }
        #expect(got.last == .schedulingRefused(farAway))
    }

    @Test func receivesOverTCPWithTheConnectionAsPeer() async throws {
        let loop = OSCEventLoop()
        let server = try OSCTCPServer(host: "127.0.0.1", loop: loop)
        defer { server.close() }
        let got = Collector<String>()
        let receiver = OSCReceiver(loop: loop) { message, _, peer in
            guard case .tcp(let connection) = peer else { return }
            got.append("\(message.address) \(connection.framing.map(\.description) ?? "?")")
        }
        receiver.attach(to: server)
        let address = try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: server.localAddress.port))
        let connection = try await OSCTCPClient.connect(to: address, framing: .lengthPrefix, onFrame: { _, _ in })
        defer { connection.close() }
        connection.send(OSCMessage("/tcp", [.string("x")]).encoded())
        #expect(await got.wait(for: 1) == ["/tcp length-prefix"])
    }

    /// Issue 9, item 7: one host filling its share of the future-bundle queue leaves room for
    /// another host's bundles (before, its 20 bundles took all 16 places and the other host's was
    /// refused).
    @Test func eachHostHasItsShareOfTheFutureQueue() async throws {
        let loop = OSCEventLoop()
        let refused = Collector<String>()
        let delivered = Collector<String>()
        let receiver = OSCReceiver(
            loop: loop, maximumScheduledPackets: 16, onError: { _, peer in refused.append(peer.address.host) }
        ) { message, _, peer in delivered.append("\(message.address) \(peer.address.host)") }
        #expect(receiver.maximumScheduledPacketsPerHost == 2)
        let flooder = try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: 5000))
        let other = try #require(OSCSocketAddress(numericHost: "127.0.0.2", port: 5000))
        let now = OSCReceiver.now().secondsSince1970
        // Different ports of one host share one share.
        let flood = (0..<20).map { index in
            (Self.bundle(OSCTimeTag(secondsSince1970: now + 600 + Double(index)), "/flood"), UInt16(5000 + index))
        }
        let soon = Self.bundle(OSCTimeTag(secondsSince1970: now + 0.2), "/soon")
        loop.execute {
            for (bytes, port) in flood {
                let source = OSCSocketAddress(numericHost: "127.0.0.1", port: port) ?? flooder
                bytes.withUnsafeBytes { receiver.receive($0, from: .udp(source)) }
            }
            soon.withUnsafeBytes { receiver.receive($0, from: .udp(other)) }
        }
        #expect(await delivered.wait(for: 1) == ["/soon 127.0.0.2"])
        #expect(await refused.wait(for: 18) == Array(repeating: "127.0.0.1", count: 18))
    }

    /// Time tags far ahead are refused, whatever the receiver's own limit says, and no conversion
    /// of the peer's number traps.
    @Test func farTimeTagsAreRefusedWithoutTrapping() async throws {
        let loop = OSCEventLoop()
        let refused = Collector<OSCTimeTag>()
        let receiver = OSCReceiver(
            loop: loop, maximumDelay: .infinity,
            onError: { error, _ in
                if case .schedulingRefused(let tag) = error { refused.append(tag) }
            }
        ) { _, _, _ in }
        #expect(receiver.maximumDelay == 4_294_967_296)
        #expect(OSCReceiver(loop: loop, maximumDelay: .nan) { _, _, _ in }.maximumDelay == 0)
        let source = try #require(OSCSocketAddress(numericHost: "127.0.0.1", port: 5000))
        let strict = OSCReceiver(
            loop: loop, maximumDelay: 60,
            onError: { error, _ in
                if case .schedulingRefused(let tag) = error { refused.append(tag) }
            }
        ) { _, _, _ in Issue.record("nothing is due") }
        let last = OSCTimeTag(rawValue: .max)
        let hour = OSCTimeTag(secondsSince1970: OSCReceiver.now().secondsSince1970 + 3600)
        loop.execute {
            Self.bundle(last, "/last").withUnsafeBytes { strict.receive($0, from: .udp(source)) }
            Self.bundle(hour, "/hour").withUnsafeBytes { strict.receive($0, from: .udp(source)) }
            // Accepted (the end of the era is less than 2³² s away), not delivered.
            Self.bundle(last, "/last").withUnsafeBytes { receiver.receive($0, from: .udp(source)) }
        }
        #expect(await refused.wait(for: 2) == [last, hour])
    }
}
