import Foundation
import OSCCore
import Testing

@testable import KnobLinkCLI

/// `--audio`, `--media-dir` and `/wave/load` end to end: real WAV files written by Python's `wave`
/// module, and the path attacks a peer may try.
@Suite(.serialized) struct ServerWaveLoadTests {
    /// A media directory with a tone, a text file and a link out, and a secret file beside it.
    final class Media {
        let scratch: Scratch
        let directory: String
        init() throws {
            scratch = try Scratch()
            directory = try scratch.subdirectory("media")
            try Self.writeWAV(directory + "/tone.wav", seconds: 1, rate: 22050, channels: 2)
            try Self.writeWAV(scratch.path("secret.wav"), seconds: 1, rate: 8000, channels: 1)
            try scratch.write("media/notes.wav", "these are not samples")
            try FileManager.default.createSymbolicLink(
                atPath: directory + "/link.wav", withDestinationPath: scratch.path("secret.wav"))
        }

        /// A 440 Hz tone rising from silence to full scale, 16-bit, through Python's `wave` module.
        static func writeWAV(_ path: String, seconds: Double, rate: Int, channels: Int) throws {
            let script = """
                import math, struct, sys, wave
                path, seconds, rate, channels = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
                n = int(seconds * rate)
                with wave.open(path, 'wb') as w:
                    w.setnchannels(channels)
                    w.setsampwidth(2)
                    w.setframerate(rate)
                    frames = bytearray()
                    for i in range(n):
                        v = int(32000 * (i / n) * math.sin(2 * math.pi * 440 * i / rate))
                        frames += struct.pack('<h', v) * channels
                    w.writeframes(bytes(frames))
                """
            let result = try Tool.run(
                Tool.system("python3"), ["-c", script, path, "\(seconds)", "\(rate)", "\(channels)"])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    static func visualiser(_ arguments: [String]) throws -> (peer: PythonPeer, server: ServeProcess, url: String) {
        let peer = try PythonPeer(script: "wave_visualiser.py", ["127.0.0.2", "0"])
        let port = try #require(peer.listenPort)
        let server = try ServeProcess(["--feedback-port", "\(port)"] + arguments)
        peer.command("target \(server.port)")
        return (peer, server, "osc.udp://127.0.0.2:\(port)/")
    }

    static func info(_ peer: PythonPeer) -> String? {
        let mark = peer.mark
        peer.send("/wave/info")
        return peer.waitForMessage("/wave/info", after: mark)?.strings.first
    }

    @Test func aFileBelowTheMediaDirectoryIsLoadedAndStreamed() throws {
        let media = try Media()
        let (peer, server, url) = try Self.visualiser(["--media-dir", media.directory])
        let subscribed = peer.mark
        peer.send("/wave/sub", "s \(url) i 50")
        #expect(peer.wait { $0.dropFirst(subscribed).contains { $0.address == "/overview" } })
        let mark = peer.mark
        peer.send("/wave/load", "s tone.wav")
        #expect(peer.wait { $0.dropFirst(mark).contains { $0.address == "/overview" } })
        let info = peer.messages.dropFirst(mark).first { $0.address == "/wave/info" }
        #expect(info?.arguments == [.string("tone.wav"), .float32(1), .int32(22050), .int32(2)])
        let overview = try #require(peer.messages.dropFirst(mark).last { $0.address == "/overview" })
        let bars = overview.arguments.dropFirst(3).compactMap { if case .float32(let v) = $0 { v } else { nil } }
        // The tone rises from silence to full scale: so do its bars, and the last one is the loudest.
        #expect(bars.count == 50)
        #expect(bars.first! < 0.1 && bars.last! == 1)
        #expect(zip(bars, bars.dropFirst()).allSatisfy { $0 <= $1 + 0.05 })
        #expect(server.terminate() == 0)
    }

    @Test(arguments: [
        ("../secret.wav", "'..'"), ("ABSOLUTE", "outside the media directory"),
        ("link.wav", "outside the media directory"), ("missing.wav", "does not exist"),
        ("notes.wav", "notes.wav"), ("sub/../tone.wav", "'..'"),
    ])
    func aRefusedLoadIsAnErrorAndTheSourceStays(path: String, reason: String) throws {
        let media = try Media()
        let (peer, server, _) = try Self.visualiser(["--media-dir", media.directory])
        let requested = path == "ABSOLUTE" ? media.scratch.path("secret.wav") : path
        let mark = peer.mark
        peer.send("/wave/load", "s \(requested)")
        let error = try #require(peer.waitForMessage("/sys/error", after: mark))
        #expect(error.strings.first == "/wave/load")
        #expect(error.strings.last?.contains(reason) == true, "\(error)")
        #expect(Self.info(peer) == "demo")
        #expect(server.isRunning)
        #expect(server.terminate() == 0)
    }

    @Test func withoutAMediaDirectoryEveryLoadIsRefused() throws {
        let media = try Media()
        let (peer, server, _) = try Self.visualiser([])
        let mark = peer.mark
        peer.send("/wave/load", "s \(media.directory)/tone.wav")
        let error = try #require(peer.waitForMessage("/sys/error", after: mark))
        #expect(error.strings.last?.contains("no media directory") == true)
        #expect(server.terminate() == 0)
    }

    @Test func theAudioOptionChoosesTheFirstSource() throws {
        let media = try Media()
        let (peer, server, _) = try Self.visualiser(["--audio", media.directory + "/tone.wav"])
        #expect(Self.info(peer) == "tone.wav")
        #expect(server.terminate() == 0)
    }

    @Test func anAudioFileThatCannotBeDecodedStopsServeWithTheReason() throws {
        let media = try Media()
        let path = media.directory + "/notes.wav"
        let result = try Tool.knoblink("serve", "--port", "0", "--bind", "127.0.0.1", "--audio", path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("notes.wav"), "\(result.stderr)")
    }

    @Test func serveReadsTheWaveOptions() throws {
        let command = try ServeCommand(
            parsing: ParsedArguments(
                flags: [], values: ["audio": "a.wav", "media-dir": "/srv/media"], repeatedValues: [:]))
        #expect(command.configuration.audioFile == "a.wav")
        #expect(command.configuration.mediaDirectory == "/srv/media")
        let defaults = try ServeCommand(parsing: ParsedArguments(flags: [], values: [:], repeatedValues: [:]))
        #expect(defaults.configuration.audioFile == nil && defaults.configuration.mediaDirectory == nil)
    }
}
