import Foundation
import OSCCore
import Testing

@testable import KnobLinkCLI

/// `--audio`, `--media-dir` and `/wave/load` end to end: real WAV files written by Python's `wave`
/// module, and the path attacks a peer may try.
@Suite(.serialized, .offThePool) struct ServerWaveLoadTests {
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
        // libsndfile and its codecs are opened when a file is first decoded (CSndFile/shim.h).
        let atStart = try Self.mappedFiles(server)
        #expect(!atStart.contains("libsndfile") && !atStart.contains("libFLAC"), "mapped before any audio")
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
        #expect(try Self.mappedFiles(server).contains("libsndfile.so.1"))
        #expect(server.terminate() == 0)
    }

    /// The files the server has mapped (`/proc/PID/maps`), one path a line.
    static func mappedFiles(_ server: ServeProcess) throws -> String {
        let pid = try #require(server.pid)
        // Read to the end: `String(contentsOfFile:)` stops at the size stat gives, which /proc does not know.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        let text = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        #expect(text.contains("[stack]"), "the whole of /proc/\(pid)/maps")
        return text
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

    /// Issue 9, item 8: a FIFO in the media directory (or a link to one) is refused at once,
    /// without waiting for a writer, and the next load works: the loader is not wedged.
    @Test func aFIFOIsRefusedAndTheLoaderStaysFree() throws {
        let media = try Media()
        #expect(mkfifo(media.directory + "/pipe.wav", 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: media.directory + "/to-pipe.wav", withDestinationPath: media.directory + "/pipe.wav")
        let (peer, server, _) = try Self.visualiser(["--media-dir", media.directory])
        for (index, name) in ["pipe.wav", "to-pipe.wav"].enumerated() {
            // /sys/error is limited to one a second per peer.
            if index > 0 { Thread.sleep(forTimeInterval: 1.1) }
            let mark = peer.mark
            peer.send("/wave/load", "s \(name)")
            let error = try #require(peer.waitForMessage("/sys/error", after: mark), "no answer to \(name)")
            #expect(error.strings.last?.contains("not a regular file") == true, "\(error)")
        }
        let mark = peer.mark
        peer.send("/wave/load", "s tone.wav")
        #expect(peer.waitForMessage("/wave/info", after: mark)?.strings.first == "tone.wav")
        #expect(server.terminate() == 0)
    }

    /// A file that failed to decode is not decoded again while it is unchanged (a damaged Ogg
    /// Vorbis file leaks memory in libsndfile at every attempt); once rewritten, it is.
    @Test func aFileThatFailedIsNotDecodedAgainUntilItChanges() throws {
        let media = try Media()
        let server = try ServeProcess(["--feedback-port", "auto", "--media-dir", media.directory])
        let peer = try UDPTestPeer(server: server.port)
        func counts() -> [Int] {
            ["waveLoadErrors", "waveLoadsRefused"].map { ServerDiskAndQueueLimitTests.counter(peer, $0) ?? -1 }
        }
        func load(expecting expected: [Int]) {
            peer.send("/wave/load", [.string("notes.wav")])
            let deadline = ContinuousClock.now + .seconds(10)
            while counts() != expected && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(counts() == expected)
        }
        load(expecting: [1, 0])
        load(expecting: [1, 1])
        load(expecting: [1, 2])
        try media.scratch.write("media/notes.wav", "these are still not samples")
        load(expecting: [2, 2])
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
