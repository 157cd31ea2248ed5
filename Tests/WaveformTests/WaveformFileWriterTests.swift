import Foundation
import Testing
import Waveform

/// Streamed `.dat` and `.json` files are byte for byte the in-memory ones and audiowaveform's,
/// and a write that fails leaves the destination as it was.
@Suite struct WaveformFileWriterTests {
    static let formats: [WaveformFileFormat] = [.dat(version: nil), .dat(version: 1), .dat(version: 2), .json]

    static func expectedBytes(_ data: WaveformData, _ format: WaveformFileFormat) -> [UInt8] {
        switch format {
        case .dat(let version): data.datBytes(version: version)
        case .json: Array(data.jsonText().utf8)
        }
    }

    static func contents(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func entries(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test(arguments: GoldenTests.cases)
    func streamedFilesAreAudiowaveformsByteForByte(input: String, output: String) throws {
        let spec = try #require(GoldenTests.outputs.first { output.hasSuffix($0.suffix) })
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(spec.json ? "out.json" : "out.dat").path
        let writer = try WaveformFileWriter(path: path, format: spec.json ? .json : .dat(version: nil))
        _ = try AudioAnalysis(contentsOf: Fixtures.path(input), options: spec.options, pairs: .stream(writer))
        try writer.finish()
        #expect(firstDifference(try Self.contents(path), try Fixtures.bytes(output)) == nil)
        #expect(try Self.entries(directory) == [spec.json ? "out.json" : "out.dat"], "no spool or temporary left")
    }

    @Test(arguments: PairHandlingTests.cases)
    func streamedFilesEqualTheInMemoryOnes(channels: Int, bits: Int, split: Bool) throws {
        let options = WaveformOptions(zoom: PairHandlingTests.zoom, bits: bits, splitChannels: split)
        let kept = PairHandlingTests.analyze(channels: channels, options: options, pairs: .keep)
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (number, format) in Self.formats.enumerated() {
            let path = directory.appendingPathComponent("out\(number)").path
            let writer = try WaveformFileWriter(path: path, format: format)
            _ = PairHandlingTests.analyze(channels: channels, options: options, pairs: .stream(writer))
            try writer.finish()
            let expected = Self.expectedBytes(kept.waveform, format)
            let produced = try Self.contents(path)
            #expect(produced.count == expected.count, "\(format)")
            #expect(firstDifference(produced, expected) == nil, "\(format)")
        }
        #expect(try Self.entries(directory) == (0..<Self.formats.count).map { "out\($0)" })
    }

    @Test(arguments: formats)
    func anEmptyAnalysisWritesAHeaderOnly(format: WaveformFileFormat) throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("empty").path
        let writer = try WaveformFileWriter(path: path, format: format)
        let analysis = AudioAnalyzer(sampleRate: 48_000, channels: 2, pairs: .stream(writer)).finish()
        try writer.finish()
        let empty = WaveformData(
            sampleRate: 48_000, samplesPerPixel: 256, bits: 16, channels: 1, length: 0, samples: [])
        #expect(analysis.waveformLength == 0)
        #expect(try Self.contents(path) == Self.expectedBytes(empty, format))
    }

    @Test(arguments: formats)
    func aDescriptorGetsTheWholeFileAtTheEnd(format: WaveformFileFormat) throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("by-descriptor").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        let writer = try WaveformFileWriter(fileDescriptor: descriptor, name: "<descriptor>", format: format)
        let options = WaveformOptions(zoom: 300, splitChannels: true)
        let kept = try AudioAnalysis(contentsOf: Fixtures.path("six-channels.wav"), options: options)
        _ = try AudioAnalysis(contentsOf: Fixtures.path("six-channels.wav"), options: options, pairs: .stream(writer))
        try writer.finish()
        #expect(close(descriptor) == 0, "the writer leaves the caller's descriptor open")
        #expect(firstDifference(try Self.contents(path), Self.expectedBytes(kept.waveform, format)) == nil)
    }

    @Test(arguments: formats)
    func aFullDeviceIsAnErrorNamingIt(format: WaveformFileFormat) throws {
        let writer = try WaveformFileWriter(path: "/dev/full", format: format)
        _ = try AudioAnalysis(contentsOf: Fixtures.path("stereo-sine.wav"), pairs: .stream(writer))
        #expect(throws: WaveformWriteError(path: "/dev/full", call: "write", code: ENOSPC)) {
            try writer.finish()
        }
        #expect(writer.failure?.description == "cannot write '/dev/full': No space left on device (write)")
    }

    @Test func aMissingDirectoryFailsBeforeAnyDecoding() throws {
        #expect(throws: WaveformWriteError(path: "/nonexistent/dir/a.dat", call: "open", code: ENOENT)) {
            _ = try WaveformFileWriter(path: "/nonexistent/dir/a.dat", format: .dat(version: nil))
        }
    }

    @Test(arguments: formats)
    func aFailedRenameLeavesTheDirectoryAsItWas(format: WaveformFileFormat) throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("out")
        let writer = try WaveformFileWriter(path: destination.path, format: format)
        _ = try AudioAnalysis(contentsOf: Fixtures.path("stereo-sine.wav"), pairs: .stream(writer))
        // The destination becomes a directory that is not empty, so the rename cannot replace it.
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        try Data([1]).write(to: destination.appendingPathComponent("inside"))
        #expect(throws: WaveformWriteError.self) { try writer.finish() }
        #expect(writer.failure?.call == "rename")
        #expect(writer.failure?.path == destination.path)
        #expect(try Self.entries(directory) == ["out"], "the temporary file is removed")
        #expect(try Self.entries(destination) == ["inside"])
    }

    @Test(arguments: formats)
    func aCancelledWriterLeavesAnOldFileUntouched(format: WaveformFileFormat) throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out").path
        try Data("old contents".utf8).write(to: URL(fileURLWithPath: path))
        let writer = try WaveformFileWriter(path: path, format: format)
        _ = try AudioAnalysis(contentsOf: Fixtures.path("stereo-sine.wav"), pairs: .stream(writer))
        writer.cancel()
        #expect(try Self.contents(path) == Array("old contents".utf8))
        #expect(try Self.entries(directory) == ["out"])
    }

    @Test func aReplacedFileKeepsItsPermissions() throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.dat").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let writer = try WaveformFileWriter(path: path, format: .dat(version: nil))
        _ = try AudioAnalysis(contentsOf: Fixtures.path("mono-sweep.wav"), pairs: .stream(writer))
        try writer.finish()
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        #expect(try Self.contents(path) == Fixtures.bytes("mono-sweep.z256.dat"))
    }
}
