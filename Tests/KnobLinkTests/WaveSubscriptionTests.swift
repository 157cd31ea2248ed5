import Locking
import OSCCore
import OSCTransport
import Testing

@testable import KnobLink

/// `/wave/sub` and `/wave/unsub`: what a visualiser gets at once and when the source changes,
/// the arguments, and the cap.
@Suite struct WaveSubscriptionTests {
    @Test func subscribingSendsInfoOverviewTransportAndProgress() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 4), on: fixture)
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, bars: 100))
        #expect(
            peer.messages("/wave/info").first?.arguments == [.string("ramp"), .float32(4), .int32(1000), .int32(2)])
        let frames = WaveTesting.overviews(peer.messages)
        #expect(frames.count == 1)
        #expect(frames.values.first == WaveTesting.ramp(100))
        #expect(peer.messages("/wave/playing").map(\.arguments) == [[.int32(0)]])
        #expect(peer.messages("/wave/progress").map(\.arguments) == [[.float32(0)]])
        #expect(fixture.statistic("waveSubscribers") == 1)
    }

    @Test func theDemoSignalIsStreamedWithoutAFile() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer))
        let info = try #require(peer.messages("/wave/info").first)
        #expect(info.arguments.first == .string("demo"))
        guard case .float32(let duration) = info.arguments[1] else { Issue.record("no duration"); return }
        #expect(duration >= 3 && duration <= 60)
        let bars = try #require(WaveTesting.overviews(peer.messages).values.first)
        #expect(bars.count == 64)
        // Normalised to the loudest bar, and with a visible shape: not flat.
        #expect(abs((bars.max() ?? 0) - 1) < 1e-6)
        #expect((bars.min() ?? 1) < 0.5)
    }

    @Test func defaultsAre64BarsInBlobs() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        peer.send("/wave/sub", [.string(peer.url)])
        #expect(await peer.wait { $0.contains { $0.address == "/wave/progress" } })
        #expect(peer.messages("/wave/bars/f").isEmpty)
        #expect(WaveTesting.overviews(peer.messages).values.first?.count == 64)
    }

    @Test func flagsChooseFloatsFullScaleAndRMS() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(), on: fixture)
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, bars: 130, flags: 1))
        #expect(peer.messages("/wave/bars").isEmpty)
        #expect(peer.messages("/wave/bars/f").count == 3)
        #expect(WaveTesting.overviews(peer.messages).values.first == WaveTesting.ramp(130))
        #expect(await WaveTesting.subscribe(peer, bars: 10, flags: 2 | 4))
        #expect(WaveTesting.overviews(peer.messages).values.first == WaveTesting.ramp(10, scale: 0.5 * 0.25))
    }

    @Test func largeOverviewsAreSplitWithinTheDatagramLimit() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(), on: fixture)
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, bars: 65536))
        let parts = peer.messages("/wave/bars")
        #expect(parts.count > 1)
        #expect(Set(parts.map { $0.arguments[0] }).count == 1)
        #expect(peer.largestPacket <= 8192)
        #expect(WaveTesting.overviews(peer.messages).values.first == WaveTesting.ramp(65536))
    }

    @Test func aNewSourceOrBarCountSendsTheOverviewAgain() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, bars: 16))
        peer.clear()
        WaveTesting.setSource(WaveTesting.rampSource(name: "second"), on: fixture)
        #expect(await peer.wait { WaveTesting.overviews($0).count == 1 })
        #expect(peer.messages("/wave/info").first?.string == "second")
        #expect(WaveTesting.overviews(peer.messages).values.first == WaveTesting.ramp(16))
        #expect(await WaveTesting.subscribe(peer, bars: 32))
        #expect(WaveTesting.overviews(peer.messages).values.first == WaveTesting.ramp(32))
        #expect(fixture.statistic("waveSubscribers") == 1)
    }

    @Test func subscribingAnotherURL() async throws {
        let fixture = try ServerFixture()
        let controller = try fixture.peer()
        let visualiser = try fixture.peer()
        controller.send("/wave/sub", [.string(visualiser.url), .int32(8)])
        #expect(await visualiser.wait { WaveTesting.overviews($0).count == 1 })
        await controller.sync()
        #expect(controller.messages.allSatisfy { $0.address == "/sys/pong" })
    }

    @Test func unsubscribeStopsTheStream() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(), on: fixture)
        let peer = try fixture.peer()
        let other = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer))
        peer.send("/wave/unsub", [.string(peer.url)])
        await peer.sync()
        #expect(fixture.statistic("waveSubscribers") == 0)
        peer.clear()
        other.send("/wave/progress", [.float32(0.5)])
        WaveTesting.setSource(WaveTesting.rampSource(), on: fixture)
        await other.sync()
        await peer.sync()
        #expect(peer.messages.allSatisfy { $0.address == "/sys/pong" })
    }

    @Test(arguments: [
        [OSCArgument](), [.int32(3)], [.string("not a url")], [.string("URL"), .int32(0)],
        [.string("URL"), .int32(65537)], [.string("URL"), .int32(8), .float32(0)],
        [.string("URL"), .int32(8), .float32(.nan)], [.string("URL"), .int32(8), .float32(30), .string("x")],
    ])
    func badArgumentsAreRefused(arguments: [OSCArgument]) async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        let resolved = arguments.map { $0 == .string("URL") ? .string(peer.url) : $0 }
        let error = await peer.request("/wave/sub", resolved, reply: "/sys/error")
        #expect(error?.arguments.first == .string("/wave/sub"))
        #expect(peer.messages("/wave/info").isEmpty)
        #expect(fixture.statistic("waveSubscribers") == 0)
        #expect(fixture.statistic("badArguments") == 1)
    }

    @Test func theRateIsCappedAt120Hz() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, hz: 100_000))
        let interval = fixture.server.onLoop { fixture.server.core.wave!.subscribers.first?.interval }
        #expect(interval == 1.0 / 120)
    }

    @Test func subscribersAreCappedAtMaxPeers() async throws {
        let fixture = try ServerFixture { $0.maxPeers = 2 }
        let peers = try (0..<3).map { _ in try fixture.peer() }
        #expect(await WaveTesting.subscribe(peers[0]))
        #expect(await WaveTesting.subscribe(peers[1]))
        let error = await peers[2].request("/wave/sub", [.string(peers[2].url)], reply: "/sys/error")
        #expect(error?.lastString.contains("too many wave subscribers") == true)
        #expect(fixture.statistic("waveSubscribers") == 2)
        #expect(fixture.statistic("waveSubscriberCap") == 1)
        // Subscribing again with the same url replaces, so it is never refused.
        #expect(await WaveTesting.subscribe(peers[1], bars: 8))
        #expect(fixture.statistic("waveSubscriberCap") == 1)
    }

    @Test func infoAnswersTheSenderOrAURL() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 3), on: fixture)
        let peer = try fixture.peer()
        let other = try fixture.peer()
        let info = await peer.request("/wave/info", reply: "/wave/info")
        #expect(info?.arguments == [.string("ramp"), .float32(3), .int32(1000), .int32(2)])
        peer.send("/wave/info", [.string(other.url)])
        #expect(await other.next("/wave/info") != nil)
    }

    @Test func aBurstOfSubscriptionsGetsOneStateNowAndTheLatestOnceLater() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(), on: fixture)
        let peer = try fixture.peer()
        let subscriptions = (1...10).map { count in
            OSCPacket.message(OSCMessage("/wave/sub", [.string(peer.url), .int32(Int32(count * 100))]))
        }
        // One packet: the server handles all ten at once, so the count below does not depend on timing.
        peer.send(packet: .bundle(OSCBundle(timeTag: .immediately, subscriptions)))
        #expect(await peer.wait { WaveTesting.overviews($0).values.contains { $0.count == 1000 } })
        await peer.sync()
        let frames = WaveTesting.overviews(peer.messages)
        #expect(frames.values.map(\.count).sorted() == [100, 1000])
        #expect(peer.messages("/wave/info").count == 2)
        #expect(fixture.statistic("waveSubscribers") == 1)
    }

    @Test func aVisualiserWhoseConnectionClosesIsDropped() async throws {
        // The test task can wait seconds between connecting and sending when ThreadSanitizer and
        // the other tests keep the concurrency pool's two threads busy: in session 10's runs the
        // subscription left 11 s after the connection, once the server had already closed it for
        // sending nothing in its first 10 s (`tcpFirstFrameTimeouts`). That timeout is not what
        // this test is about.
        let fixture = try ServerFixture { $0.firstFrameTimeout = 300 }
        WaveTesting.setSource(WaveTesting.rampSource(duration: 600), on: fixture)
        let received = Locked(0)
        let clientClosed = Locked("")
        let start = ContinuousClock.now
        let connection = try await OSCTCPClient.connect(
            to: OSCSocketAddress(numericHost: "127.0.0.1", port: fixture.port)!, framing: .slip,
            onFrame: { _, _ in received.withLock { $0 += 1 } },
            onClose: { _, reason in clientClosed.withLock { $0 = "\(reason) after \(ContinuousClock.now - start)" } })
        connection.send(
            OSCMessage("/wave/sub", [.string("osc.tcp://127.0.0.1:1/"), .int32(8), .float32(120)]).encoded())
        // The server's counters and the client's side of the connection say how far the packet
        // got if nothing comes back.
        #expect(
            await WaveTesting.eventually { received.withLock { $0 } > 0 },
            """
            subscribed; server counters: \(fixture.server.statistics().filter { $0.value != 0 }); \
            client: closed \(clientClosed.withLock { $0.isEmpty ? "no" : $0 }), \
            \(connection), \(connection.trafficDescription)
            """)
        #expect(fixture.statistic("waveSubscribers") == 1)
        connection.close()
        #expect(await WaveTesting.eventually { fixture.statistic("waveDeadSubscribers") == 1 }, "dropped")
        #expect(fixture.statistic("waveSubscribers") == 0)
    }
}
