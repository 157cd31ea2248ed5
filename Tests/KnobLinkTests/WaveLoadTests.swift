import Foundation
import OSCCore
import Testing

@testable import KnobLink

/// `/wave/load` and `--audio`: files below the media directory only, decoded off the loop, the
/// source kept when anything goes wrong.
@Suite struct WaveLoadTests {
    final class Media {
        let root: String
        var directory: String { root + "/media" }
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("wave-load-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/media", withIntermediateDirectories: true)
            try WaveTesting.writeWAV(to: directory + "/tone.wav", seconds: 0.5, sampleRate: 8000, channels: 2)
            try WaveTesting.writeWAV(to: root + "/secret.wav")
            try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: directory + "/notes.wav"))
            try FileManager.default.createSymbolicLink(
                atPath: directory + "/link.wav", withDestinationPath: root + "/secret.wav")
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func aFileBelowTheMediaDirectoryReplacesTheSource() async throws {
        let media = try Media()
        let fixture = try ServerFixture { $0.mediaDirectory = media.directory }
        let visualiser = try fixture.peer()
        let loader = try fixture.peer()
        #expect(await WaveTesting.subscribe(visualiser, bars: 20))
        visualiser.clear()
        loader.send("/wave/load", [.string("tone.wav")])
        // The loader is no visualiser: it gets the new info as the answer.
        let answer = await loader.next("/wave/info")
        #expect(answer?.arguments == [.string("tone.wav"), .float32(0.5), .int32(8000), .int32(2)])
        #expect(await visualiser.wait { WaveTesting.overviews($0).count == 1 })
        #expect(visualiser.messages("/wave/info").first?.string == "tone.wav")
        let bars = try #require(WaveTesting.overviews(visualiser.messages).values.first)
        #expect(bars.count == 20 && bars.allSatisfy { $0 > 0.9 })
        #expect(visualiser.messages("/wave/progress").last?.float == 0)
        #expect(fixture.statistic("waveLoads") == 1)
    }

    @Test(arguments: [
        ("../secret.wav", "'..'"), ("ABSOLUTE", "outside"), ("link.wav", "outside"), ("missing.wav", "does not exist"),
        ("notes.wav", "notes.wav"),
    ])
    func refusedLoadsKeepTheSource(path: String, reason: String) async throws {
        let media = try Media()
        let fixture = try ServerFixture { $0.mediaDirectory = media.directory }
        let peer = try fixture.peer()
        let requested = path == "ABSOLUTE" ? media.root + "/secret.wav" : path
        let error = await peer.request("/wave/load", [.string(requested)], reply: "/sys/error")
        #expect(error?.arguments.first == .string("/wave/load"))
        #expect(error?.lastString.contains(reason) == true, "\(String(describing: error))")
        #expect(await peer.request("/wave/info", reply: "/wave/info")?.string == "demo")
        #expect(fixture.statistic("waveLoads") == 0)
        #expect(fixture.statistic("waveLoadsRefused") + fixture.statistic("waveLoadErrors") == 1)
    }

    @Test func withoutAMediaDirectoryNothingLoads() async throws {
        let media = try Media()
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        let error = await peer.request("/wave/load", [.string(media.directory + "/tone.wav")], reply: "/sys/error")
        #expect(error?.lastString.contains("no media directory") == true)
    }

    @Test func theServerKeepsServingWhileAFileDecodes() async throws {
        let media = try Media()
        try WaveTesting.writeWAV(to: media.directory + "/long.wav", seconds: 20, sampleRate: 44100, channels: 2)
        let fixture = try ServerFixture { $0.mediaDirectory = media.directory }
        let peer = try fixture.peer()
        peer.send("/wave/load", [.string("long.wav")])
        // Answered while the decode runs (or after it, on a fast machine): the loop is not blocked.
        #expect(await peer.request("/sys/ping", reply: "/sys/pong") != nil)
        #expect(await peer.next("/wave/info", seconds: 30)?.string == "long.wav")
    }

    @Test func oneFileAtATime() async throws {
        let media = try Media()
        let fixture = try ServerFixture { $0.mediaDirectory = media.directory }
        let peer = try fixture.peer()
        let loads = ["tone.wav", "tone.wav"].map { OSCPacket.message(OSCMessage("/wave/load", [.string($0)])) }
        // One packet: the second load is handled before the first one's decoding can report back.
        peer.send(packet: .bundle(OSCBundle(timeTag: .immediately, loads)))
        #expect(await peer.next("/wave/info")?.string == "tone.wav")
        #expect(peer.messages("/sys/error").first?.lastString.contains("being loaded") == true)
        #expect(fixture.statistic("waveLoads") == 1)
        #expect(fixture.statistic("waveLoadsRefused") == 1)
    }

    @Test func aServerGoneWhileAFileDecodesIsNotTouched() async throws {
        let media = try Media()
        try WaveTesting.writeWAV(to: media.directory + "/long.wav", seconds: 20, sampleRate: 44100, channels: 2)
        do {
            let fixture = try ServerFixture { $0.mediaDirectory = media.directory }
            let peer = try fixture.peer()
            peer.send("/wave/load", [.string("long.wav")])
            await peer.sync()
        }
        // The server and its core are gone; the decode finishing now must not reach them (a
        // crash here ends the test run).
        try await Task.sleep(for: .milliseconds(800))
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        #expect(await peer.request("/wave/info", reply: "/wave/info")?.string == "demo")
    }

    @Test func theAudioFileOfTheConfigurationIsTheFirstSource() async throws {
        let media = try Media()
        let fixture = try ServerFixture { $0.audioFile = media.directory + "/tone.wav" }
        let peer = try fixture.peer()
        #expect(await peer.request("/wave/info", reply: "/wave/info")?.string == "tone.wav")
    }

    @Test func anUndecodableAudioFileFailsTheServer() throws {
        let media = try Media()
        #expect(throws: (any Error).self) {
            _ = try ServerFixture { $0.audioFile = media.directory + "/notes.wav" }
        }
    }
}
