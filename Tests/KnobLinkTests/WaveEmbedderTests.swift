import Locking
import OSCCore
import Parameters
import Testing

@testable import KnobLink

/// The wave stream's API for a program that embeds the server (`KnobLinkServer+Wave.swift`), as
/// `knoblink serve --surface` uses it: its state, its bars, play, pause and seek acting as a
/// peer's would, and the changes of course it reports.
@Suite struct WaveEmbedderTests {
    @Test func stateAndBarsAreTheStreams() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 60), on: fixture)
        let state = try #require(fixture.server.waveState)
        #expect(state.name == "ramp" && state.duration == 60 && !state.isPlaying && state.progress == 0)
        // Peak bars scaled to the loudest: what a visualiser asking flags 0 gets.
        #expect(fixture.server.waveBars(count: 8) == WaveTesting.ramp(8))
        #expect(fixture.server.waveBars(count: 0).count == 1)
    }

    @Test func playPauseAndSeekReachEveryVisualiserAndAreReported() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 60), on: fixture)
        let reported = Locked<[WaveState]>([])
        fixture.server.onWaveChange = { state in reported.withLock { $0.append(state) } }
        let visualiser = try fixture.peer()
        #expect(await WaveTesting.subscribe(visualiser, hz: 60))
        visualiser.clear()

        fixture.server.setWavePlaying(true)
        #expect(await visualiser.wait { $0.contains { $0.address == "/wave/playing" && $0.int == 1 } })
        #expect(await WaveTesting.eventually { reported.withLock { $0.last?.isPlaying == true } })
        #expect(fixture.server.waveState?.isPlaying == true)

        fixture.server.seekWave(to: 0.5)
        #expect(await visualiser.wait { $0.contains { $0.address == "/wave/progress" && ($0.float ?? 0) >= 0.5 } })
        #expect(await WaveTesting.eventually { reported.withLock { ($0.last?.progress ?? 0) >= 0.5 } })

        fixture.server.setWavePlaying(false)
        #expect(await visualiser.wait { $0.contains { $0.address == "/wave/playing" && $0.int == 0 } })
        #expect(await WaveTesting.eventually { reported.withLock { $0.last?.isPlaying == false } })
        // One report per change of course, not one per progress update while playing.
        #expect(reported.withLock { $0.count } == 3)
        // A seek out of range is clamped, as a peer's is.
        fixture.server.seekWave(to: 7)
        #expect(await WaveTesting.eventually { fixture.server.waveState?.progress == 1 })
    }

    @Test func aNewSourceIsReportedWithANewSourceNumber() async throws {
        let fixture = try ServerFixture()
        let reported = Locked<[WaveState]>([])
        fixture.server.onWaveChange = { state in reported.withLock { $0.append(state) } }
        let before = try #require(fixture.server.waveState)
        WaveTesting.setSource(WaveTesting.rampSource(duration: 2, name: "other"), on: fixture)
        let after = try #require(reported.withLock { $0.last })
        #expect(after.name == "other" && after.source != before.source && after.duration == 2)
    }

    /// A tree reload registers the wave addresses again and keeps the stream: its source, its
    /// playhead and its visualisers are not the tree's.
    @Test func aTreeReloadKeepsTheStreamAndItsVisualisers() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 60), on: fixture)
        let visualiser = try fixture.peer()
        #expect(await WaveTesting.subscribe(visualiser))
        fixture.server.seekWave(to: 0.25)
        #expect(await WaveTesting.eventually { fixture.server.waveState?.progress == 0.25 })
        try fixture.server.reloadTree(ParameterTree.makeDefault())
        #expect(fixture.server.waveState?.name == "ramp")
        #expect(fixture.server.waveState?.progress == 0.25)
        #expect(fixture.statistic("waveSubscribers") == 1)
        visualiser.clear()
        let scrubber = try fixture.peer()
        scrubber.send("/wave/progress", [.float32(0.75)])
        #expect(await visualiser.wait { $0.contains { $0.address == "/wave/progress" && $0.float == 0.75 } })
    }
}
