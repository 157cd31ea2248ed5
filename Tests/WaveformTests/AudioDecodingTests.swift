import Foundation
import Testing
import Waveform

/// Files written by libsndfile in every format it writes here, decoded back.
@Suite struct AudioDecodingTests {
    static func reference(_ samples: [Int16], sampleRate: Int, channels: Int, options: WaveformOptions) -> AudioAnalysis
    {
        var analyzer = AudioAnalyzer(sampleRate: sampleRate, channels: channels, options: options)
        samples.withUnsafeBufferPointer { analyzer.consume(interleaved: $0) }
        return analyzer.finish()
    }

    @Test(arguments: TestAudio.Format.allCases)
    func everyFormatDecodes(format: TestAudio.Format) throws {
        let sampleRate = format == .opus ? 48_000 : 44_100
        try #require(format.isWritable(sampleRate: sampleRate, channels: 2), "libsndfile here cannot write \(format)")
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tone.\(format.fileExtension)").path
        let frames = sampleRate * 3 / 2
        let samples = TestAudio.sine(frames: frames, channels: 2, sampleRate: sampleRate, amplitude: 0.4)
        try TestAudio.write(samples, to: path, format: format.code, sampleRate: sampleRate, channels: 2)

        let analysis = try AudioAnalysis(contentsOf: path)
        let info = try #require(analysis.fileInfo)
        #expect(info.formatName == format.formatName)
        #expect(info.channels == 2 && info.sampleRate == sampleRate)
        #expect(info == (try AudioFileInfo(contentsOf: path)))
        if format.isLossless {
            #expect(info.frameCountHint == frames)
            let expected = Self.reference(samples, sampleRate: sampleRate, channels: 2, options: WaveformOptions())
            #expect(analysis.waveform == expected.waveform)
            #expect(analysis.summary == expected.summary)
        } else {
            // Encoders add delay and padding: the length is close. The pairs equal those of a
            // plain sf_readf_short decode of the same file.
            #expect(abs(analysis.frameCount - frames) < frames / 10, "\(analysis.frameCount) frames of \(frames)")
            let decoded = try TestAudio.readShorts(path)
            #expect(
                analysis.waveform.samples == ReferenceMinMax.pairs(decoded, channels: 2, zoom: 256))
            // The level of the mixed tone, (0.4 + 0.2) / 2 of full scale, within a lossy codec's error.
            let peak = analysis.summary.peak(fromSeconds: 0.2, toSeconds: 1.2)
            #expect(peak > 0.26 && peak < 0.34, "peak \(peak)")
        }
    }

    @Test(arguments: [1, 2, 6])
    func channelCounts(channels: Int) throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c\(channels).wav").path
        let samples = TestAudio.sine(frames: 22_050 + 77, channels: channels, sampleRate: 22_050, amplitude: 0.9)
        try TestAudio.write(
            samples, to: path, format: TestAudio.Format.wav.code, sampleRate: 22_050, channels: channels)
        for options in [WaveformOptions(zoom: 256), WaveformOptions(zoom: 300, bits: 8, splitChannels: true)] {
            let analysis = try AudioAnalysis(contentsOf: path, options: options)
            #expect(analysis.channels == channels)
            #expect(
                analysis.waveform.samples
                    == ReferenceMinMax.pairs(
                        samples, channels: channels, zoom: options.zoom, bits: options.bits,
                        split: options.splitChannels))
        }
    }

    @Test func floatFileBeyondFullScaleIsClamped() throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("loud.wav").path
        try TestAudio.writeFloat([1.5, -1.5, 0.25, -3], to: path, sampleRate: 8000, channels: 1)
        let analysis = try AudioAnalysis(contentsOf: path, options: WaveformOptions(zoom: 1))
        #expect(analysis.waveform.samples == [32767, 32767, -32767, -32767, 8191, 8191, -32767, -32767])
        #expect(analysis.summary.bars(count: 4, normalization: .fullScale) == [1, 1, 8191 / 32767, 1])
    }

    @Test func lossyDecodeBeyondFullScaleIsClampedNotWrapped() throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hot.ogg").path
        let loud = (0..<44_100).map { Float(1.5 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
        try TestAudio.writeFloat(loud, to: path, sampleRate: 44_100, channels: 1, format: TestAudio.Format.vorbis.code)
        let pairs = try AudioAnalysis(contentsOf: path).waveform
        // libsndfile's own sf_readf_short lets 1.5 × 32767 wrap to negative values; the crests here
        // sit at full scale in every bucket.
        for index in 10..<(pairs.length - 10) {
            #expect(pairs.pair(at: index) == (-32768, 32767), "bucket \(index)")
        }
    }

    @Test func silenceDecodesToZeroBars() throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("silence.flac").path
        try TestAudio.write(
            [Int16](repeating: 0, count: 20_000), to: path, format: TestAudio.Format.flac.code, sampleRate: 8000,
            channels: 2)
        let analysis = try AudioAnalysis(contentsOf: path)
        #expect(analysis.frameCount == 10_000)
        #expect(analysis.waveform.samples.allSatisfy { $0 == 0 })
        #expect(analysis.summary.bars(count: 100, reduction: .db) == [Float](repeating: 0, count: 100))
    }

    @Test func headerWithoutFramesGivesAnEmptyAnalysis() throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("none.wav").path
        try TestAudio.write([], to: path, format: TestAudio.Format.wav.code, sampleRate: 8000, channels: 1)
        let analysis = try AudioAnalysis(contentsOf: path)
        #expect(analysis.frameCount == 0 && analysis.waveform.length == 0)
        #expect(analysis.summary.bars(count: 2) == [0, 0])
    }

    /// Writes `bytes` to a file in a fresh directory and decodes it, returning the error's reason.
    func failure(named name: String, bytes: [UInt8]?) throws -> AudioDecodingError {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        if let bytes { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        do {
            _ = try AudioAnalysis(contentsOf: path)
        } catch {
            #expect(error.path == path)
            #expect(error.description.hasPrefix("cannot decode '\(path)': "))
            return error
        }
        Issue.record("\(name) decoded")
        return AudioDecodingError(path: path, reason: .cancelled)
    }

    /// A stereo 16-bit WAV of 10 000 frames, cut to `length` bytes.
    func cut(_ format: TestAudio.Format, to length: Int) throws -> [UInt8] {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("full.\(format.fileExtension)").path
        let samples = TestAudio.sine(frames: 10_000, channels: 2, sampleRate: 44_100)
        try TestAudio.write(samples, to: path, format: format.code, sampleRate: 44_100, channels: 2)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(length))
    }

    @Test func emptyFile() throws {
        #expect(try failure(named: "empty.wav", bytes: []).reason == .empty)
    }

    @Test func missingFile() throws {
        #expect(try failure(named: "missing.wav", bytes: nil).reason == .notFound)
    }

    @Test func textIsNotAudio() throws {
        let reason = try failure(named: "notes.txt", bytes: Array("just some words\n".utf8)).reason
        guard case .notAudio = reason else {
            Issue.record("\(reason)")
            return
        }
    }

    @Test(arguments: [TestAudio.Format.wav, .aiff])
    func truncatedPCMFileSaysHowMuchIsMissing(format: TestAudio.Format) throws {
        let bytes = try cut(format, to: 30_001)
        let reason = try failure(named: "cut.\(format.fileExtension)", bytes: bytes).reason
        guard case .truncated(let expected, let decoded) = reason else {
            Issue.record("\(reason)")
            return
        }
        #expect(expected == 10_000 && decoded > 7000 && decoded < 7500)
    }

    @Test func truncatedFLACFails() throws {
        let bytes = try cut(.flac, to: 3000)
        let reason = try failure(named: "cut.flac", bytes: bytes).reason
        switch reason {
        case .readFailed, .truncated: break
        default: Issue.record("\(reason)")
        }
    }

    @Test func headerCutShortIsMalformed() throws {
        let bytes = try cut(.wav, to: 30)
        let reason = try failure(named: "header.wav", bytes: bytes).reason
        guard case .malformed = reason else {
            Issue.record("\(reason)")
            return
        }
    }

    @Test func directoryIsNotReadable() throws {
        let directory = try TestAudio.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: AudioDecodingError(path: directory.path, reason: .notReadable(detail: "it is a directory"))) {
            try AudioAnalysis(contentsOf: directory.path)
        }
    }

    @Test func invalidOptionsAreRefusedBeforeOpening() {
        #expect(throws: AudioDecodingError.self) {
            try AudioAnalysis(contentsOf: Fixtures.path("mono-sweep.wav"), options: WaveformOptions(zoom: 0))
        }
        #expect(throws: AudioDecodingError.self) {
            try AudioAnalysis(contentsOf: Fixtures.path("mono-sweep.wav"), options: WaveformOptions(bits: 12))
        }
    }
}
