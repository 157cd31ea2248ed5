import OSCCore
import Testing

@testable import KnobLink

/// A UDP visualiser whose port is closed is dropped once the server finds the peer dead.
@Suite struct WaveDeadPeerTests {
    @Test func aUDPVisualiserThatIsGoneIsDropped() async throws {
        let fixture = try ServerFixture()
        WaveTesting.setSource(WaveTesting.rampSource(duration: 600), on: fixture)
        let controller = try fixture.peer()
        let gone = try fixture.peer()
        let url = gone.url
        gone.client.close()
        controller.send("/wave/sub", [.string(url), .int32(8), .float32(120)])
        controller.send("/wave/play")
        #expect(await WaveTesting.eventually { fixture.statistic("waveDeadSubscribers") == 1 }, "dropped")
        #expect(fixture.statistic("waveSubscribers") == 0)
    }
}
