import OSCCore
import Testing

@testable import KnobLink

/// `/wave/progress` under the echo rules of section 4: fan-out, no echo to the scrubber unless
/// asked, corrections, touch and the guard window.
@Suite struct WaveProgressTests {
    static func progress(_ peer: TestPeer) -> [Float] {
        peer.messages("/wave/progress").compactMap(\.float)
    }

    @Test func aScrubReachesOtherVisualisersButNotTheScrubber() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(), on: fixture)
        let (first, second) = try await WaveTesting.twoVisualisers(on: fixture)
        second.send("/wave/progress", [.float32(0.25)])
        #expect(await first.wait { _ in Self.progress(first) == [0.25] })
        await second.sync()
        try await Task.sleep(for: .milliseconds(250))
        await second.sync()
        #expect(Self.progress(second).isEmpty)
        #expect(fixture.statistic("waveScrubs") == 1)
        let query = await second.request("/wave/progress", reply: "/wave/progress")
        #expect(query?.float == 0.25)
    }

    @Test func theScrubberGetsItsOwnEchoWithFlag8() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        #expect(await WaveTesting.subscribe(peer, flags: 8))
        peer.clear()
        peer.send("/wave/progress", [.float32(0.5)])
        #expect(await peer.wait { _ in Self.progress(peer) == [0.5] })
    }

    @Test func aClampedScrubIsCorrectedToTheScrubberOnce() async throws {
        let fixture = try ServerFixture()
        let (first, second) = try await WaveTesting.twoVisualisers(on: fixture)
        second.send("/wave/progress", [.float32(1.5)])
        #expect(await second.wait { _ in Self.progress(second) == [1] })
        #expect(await first.wait { _ in Self.progress(first) == [1] })
        try await Task.sleep(for: .milliseconds(250))
        await second.sync()
        #expect(Self.progress(second) == [1])
    }

    @Test func anUnchangedValueIsNotSentAgain() async throws {
        let fixture = try ServerFixture()
        let first = try fixture.peer()
        let second = try fixture.peer()
        #expect(await WaveTesting.subscribe(first))
        #expect(await WaveTesting.subscribe(second))
        first.clear()
        second.send("/wave/progress", [.float32(0.5)])
        #expect(await first.wait { _ in Self.progress(first) == [0.5] })
        second.send("/wave/progress", [.float32(0.5)])
        second.send("/wave/progress", [.float32(0.75)])
        #expect(await first.wait { _ in Self.progress(first).last == 0.75 })
        #expect(Self.progress(first) == [0.5, 0.75])
    }

    @Test(arguments: [[OSCArgument.float32(.nan)], [.string("half")]])
    func badProgressIsRefused(arguments: [OSCArgument]) async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        peer.send("/wave/progress", [.float32(0.5)])
        let error = await peer.request("/wave/progress", arguments, reply: "/sys/error")
        #expect(error?.arguments.first == .string("/wave/progress"))
        #expect(await peer.request("/wave/progress", reply: "/wave/progress")?.float == 0.5)
    }

    @Test func whileTouchingNoProgressThenTheFinalValueOnce() async throws {
        let fixture = try ServerFixture()
        let toucher = try fixture.peer()
        let other = try fixture.peer()
        #expect(await WaveTesting.subscribe(toucher))
        toucher.send("/wave/progress/touch", [.int32(1)])
        await toucher.sync()
        toucher.clear()
        other.send("/wave/progress", [.float32(0.3)])
        other.send("/wave/progress", [.float32(0.6)])
        await other.sync()
        try await Task.sleep(for: .milliseconds(100))
        await toucher.sync()
        #expect(Self.progress(toucher).isEmpty)
        toucher.send("/wave/progress/z", [.float32(0)])
        #expect(await toucher.wait { _ in Self.progress(toucher) == [0.6] })
        try await Task.sleep(for: .milliseconds(100))
        await toucher.sync()
        #expect(Self.progress(toucher) == [0.6])
    }

    @Test func feedbackHeldInTheGuardWindowArrivesWhenItEnds() async throws {
        let fixture = try ServerFixture { $0.touchGuardMilliseconds = 300 }
        WaveTesting.setSource(WaveTesting.rampSource(duration: 60), on: fixture)
        let scrubber = try fixture.peer()
        let other = try fixture.peer()
        #expect(await WaveTesting.subscribe(scrubber))
        scrubber.send("/wave/progress", [.float32(0.2)])
        await scrubber.sync()
        scrubber.clear()
        other.send("/wave/progress", [.float32(0.7)])
        // Held while the window lasts, then the latest value: the scrubber is never left out of step.
        #expect(await scrubber.wait { _ in Self.progress(scrubber) == [0.7] })
    }
}
