import KnobLink
import Locking
import OSCCore
import OSCTransport
import Parameters
import RemoteTree
import Testing

/// The mirror's waveform subscription against a real server in this process: the overview and
/// the playhead arrive, the mirror's play, pause and seek act on the server, and another peer's
/// seek reaches the mirror; over UDP and TCP.
@Suite struct RemoteWaveTests {
    @Test(arguments: [OSCURL.Transport.udp, .tcp])
    func theServersStreamIsMirroredAndControlled(transport: OSCURL.Transport) async throws {
        let server = try RemoteParameterTreeTests.startServer()
        defer { server.stop() }
        let changes = Locked(0)
        let remote = try await RemoteParameterTree.connect(
            to: OSCURL(transport: transport, host: "127.0.0.1", port: server.port),
            onEvent: { event in if case .waveChanged = event { changes.withLock { $0 += 1 } } })
        defer { remote.close() }
        #expect(await eventually { remote.wave?.bars.count == RemoteWave.barCount })
        let wave = try #require(remote.wave)
        #expect(wave.name == "demo" && wave.duration == server.waveState?.duration && wave.source == 1)
        // The bars are the server's own, as big-endian blobs reassembled.
        #expect(wave.bars == server.waveBars(count: RemoteWave.barCount))
        #expect(changes.withLock { $0 } > 0)

        remote.setWavePlaying(true)
        #expect(await eventually { server.waveState?.isPlaying == true })
        #expect(await eventually { remote.wave?.isPlaying == true })
        remote.setWavePlaying(false)
        #expect(await eventually { server.waveState?.isPlaying == false && remote.wave?.isPlaying == false })

        remote.seekWave(to: 0.4)
        #expect(await eventually { abs((server.waveState?.progress ?? 0) - 0.4) < 1e-6 })
        #expect(remote.wave?.progress == 0.4)

        // Another peer's seek comes to the mirror.
        let peer = try UDPPeer()
        try peer.send(OSCMessage("/wave/progress", [.float32(0.8)]), toPort: server.port)
        #expect(await eventually { abs((remote.wave?.progress ?? 0) - 0.8) < 1e-6 })
    }
}
