import Testing
import Waveform

/// Decoding bytes in memory through libsndfile's virtual I/O.
@Suite struct MemoryDecodingTests {
    @Test(arguments: ["stereo-sine.flac", "mono-sweep.wav", "float-loud.wav", "six-channels.wav"])
    func bytesDecodeAsTheFileDoes(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let fromFile = try AudioAnalysis(contentsOf: Fixtures.path(name))
        let fromMemory = try bytes.withUnsafeBytes { try AudioAnalysis(audioBytes: $0, name: name) }
        #expect(fromMemory.waveform == fromFile.waveform)
        #expect(fromMemory.summary == fromFile.summary)
        #expect(fromMemory.fileInfo?.path == name)
        #expect(fromMemory.fileInfo?.formatName == fromFile.fileInfo?.formatName)
    }

    @Test func noBytesAreEmpty() {
        #expect(throws: AudioDecodingError(path: "x", reason: .empty)) {
            try AudioAnalysis(audioBytes: UnsafeRawBufferPointer(start: nil, count: 0), name: "x")
        }
    }

    @Test func everyPrefixOfAFileFailsCleanlyOrDecodesLess() throws {
        let bytes = try Fixtures.bytes("stereo-sine.flac")
        let whole = try AudioAnalysis(contentsOf: Fixtures.path("stereo-sine.flac")).frameCount
        for length in stride(from: 1, to: bytes.count, by: 997) {
            let result = bytes[0..<length].withUnsafeBytes { prefix in
                Result { () throws(AudioDecodingError) in try AudioAnalysis(audioBytes: prefix, name: "cut") }
            }
            switch result {
            case .success(let analysis): #expect(analysis.frameCount < whole, "\(length) bytes")
            case .failure(let error): #expect(error.path == "cut")
            }
        }
    }

    @Test func noiseIsNotAudio() {
        var generator = SplitMix(seed: 7)
        let noise = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        #expect(throws: AudioDecodingError.self) {
            try noise.withUnsafeBytes { try AudioAnalysis(audioBytes: $0, name: "noise") }
        }
    }
}
