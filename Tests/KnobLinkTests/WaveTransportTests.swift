import OSCCore
import Testing

@testable import KnobLink

/// `/wave/play`, `/wave/pause`, `/wave/playing` and `/wave/level`: the simulated playback.
@Suite struct WaveTransportTests {
    static func progress(_ peer: TestPeer) -> [Float] {
        peer.messages("/wave/progress").compactMap(\.float)
    }

    @Test func playingSendsRisingProgressAndLevelsAndPauseStopsThem() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 60), on: fixture)
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, hz: 120))
        peer.clear()
        peer.send("/wave/play")
        #expect(await peer.wait { _ in Self.progress(peer).count >= 5 })
        #expect(peer.messages("/wave/playing").map(\.int) == [1])
        let values = Self.progress(peer)
        #expect(values == values.sorted() && values.allSatisfy { $0 > 0 && $0 < 1 })
        #expect(peer.messages("/wave/level").contains { $0.float == 0.5 })
        peer.send("/wave/pause")
        #expect(await peer.wait { $0.contains { $0.address == "/wave/playing" && $0.int == 0 } })
        #expect(await peer.wait { $0.last?.address == "/wave/level" || $0.last?.address == "/wave/progress" })
        #expect(peer.messages("/wave/level").last?.float == 0)
        await peer.sync()
        let stopped = Self.progress(peer).count
        try await Task.sleep(for: .milliseconds(150))
        await peer.sync()
        #expect(Self.progress(peer).count <= stopped + 1)
    }

    @Test func theEndStopsAtOneAndSaysSo() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 0.3), on: fixture)
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, hz: 60))
        peer.clear()
        peer.send("/wave/playing", [.int32(1)])
        #expect(await peer.wait { $0.contains { $0.address == "/wave/playing" && $0.int == 0 } })
        #expect(await peer.wait { _ in Self.progress(peer).last == 1 })
        #expect(peer.messages("/wave/playing").map(\.int) == [1, 0])
        // Play at the end starts again from the beginning.
        peer.clear()
        peer.send("/wave/play")
        #expect(await peer.wait { _ in Self.progress(peer).contains { $0 < 0.5 } })
    }

    @Test func theTransportIsEchoedToEveryVisualiserAndAnsweredToOthers() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 60), on: fixture)
        let first = try fixture.peer()
        let second = try fixture.peer()
        let remote = try fixture.peer()
        #expect(await WaveTesting.subscribe(first))
        #expect(await WaveTesting.subscribe(second))
        remote.send("/wave/play", [.float32(1)])
        for peer in [first, second, remote] {
            #expect(await peer.wait { $0.contains { $0.address == "/wave/playing" && $0.int == 1 } })
        }
        // A button's release does nothing.
        remote.send("/wave/pause", [.float32(0)])
        #expect(await remote.request("/wave/playing", reply: "/wave/playing")?.int == 1)
        // Asking for the state it has gets the state back, and bothers nobody else.
        first.clear()
        second.clear()
        first.send("/wave/playing", [.int32(1)])
        #expect(await first.wait { $0.contains { $0.address == "/wave/playing" && $0.int == 1 } })
        await second.sync()
        #expect(second.messages("/wave/playing").isEmpty)
        first.send("/wave/pause")
        #expect(await second.wait { $0.contains { $0.address == "/wave/playing" && $0.int == 0 } })
    }

    @Test func scrubbingWhilePlayingPlaysOnFromThere() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 600), on: fixture)
        let viewer = try fixture.peer()
        let scrubber = try fixture.peer()
        #expect(await WaveTesting.subscribe(viewer, hz: 120))
        scrubber.send("/wave/play")
        #expect(await viewer.wait { _ in !Self.progress(viewer).isEmpty })
        scrubber.send("/wave/progress", [.float32(0.5)])
        #expect(await viewer.wait { _ in Self.progress(viewer).filter { $0 >= 0.5 }.count >= 3 })
        let after = Self.progress(viewer).drop { $0 < 0.5 }
        #expect(Array(after) == after.sorted())
        #expect(await scrubber.request("/wave/playing", reply: "/wave/playing")?.int == 1)
    }

    @Test func levelIsZeroWhilePausedAndAnswersQueries() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 60), on: fixture)
        let peer = try fixture.peer()
        #expect(await peer.request("/wave/level", reply: "/wave/level")?.float == 0)
        peer.send("/wave/play")
        await peer.sync()
        #expect(await peer.request("/wave/level", reply: "/wave/level")?.float == 0.5)
    }
}
