import Testing
import Waveform

/// Every golden file of audiowaveform, byte for byte, from every input.
@Suite struct GoldenTests {
    static let outputs: [(suffix: String, options: WaveformOptions, json: Bool)] = [
        ("z256.dat", WaveformOptions(zoom: 256), false),
        ("z256.json", WaveformOptions(zoom: 256), true),
        ("z512.b8.dat", WaveformOptions(zoom: 512, bits: 8), false),
        ("z300.split.json", WaveformOptions(zoom: 300, splitChannels: true), true),
    ]

    static let cases: [(input: String, output: String)] = Fixtures.inputs.flatMap { input in
        outputs.map { (input.file, "\(input.stem).\($0.suffix)") }
    }

    @Test(arguments: cases)
    func matchesAudiowaveformByteForByte(input: String, output: String) throws {
        let spec = try #require(Self.outputs.first { output.hasSuffix($0.suffix) })
        let analysis = try AudioAnalysis(contentsOf: Fixtures.path(input), options: spec.options)
        let expected = try Fixtures.bytes(output)
        let produced = spec.json ? Array(analysis.waveform.jsonText().utf8) : analysis.waveform.datBytes()
        #expect(produced.count == expected.count)
        let difference = firstDifference(produced, expected)
        #expect(difference == nil, "first difference at byte \(difference ?? -1)")
    }

    @Test(arguments: cases)
    func readsTheGoldenFileBackToTheSameData(input: String, output: String) throws {
        let spec = try #require(Self.outputs.first { output.hasSuffix($0.suffix) })
        let analysis = try AudioAnalysis(contentsOf: Fixtures.path(input), options: spec.options)
        let bytes = try Fixtures.bytes(output)
        let read =
            spec.json
            ? try WaveformData(jsonText: String(decoding: bytes, as: UTF8.self)) : try WaveformData(datBytes: bytes)
        #expect(read == analysis.waveform)
    }
}
