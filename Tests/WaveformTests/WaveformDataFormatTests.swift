import Testing
import Waveform

@Suite struct WaveformDataFormatTests {
    static func data(channels: Int, bits: Int, length: Int, seed: UInt64) -> WaveformData {
        var generator = SplitMix(seed: seed)
        let limit = bits == 8 ? 128 : 32768
        let samples = (0..<(length * channels * 2)).map { _ in Int16(Int(generator.next() % UInt64(2 * limit)) - limit)
        }
        return WaveformData(
            sampleRate: 44_100, samplesPerPixel: 300, bits: bits, channels: channels, length: length, samples: samples)
    }

    @Test(arguments: [1, 2, 6], [8, 16])
    func datAndJSONRoundTrip(channels: Int, bits: Int) throws {
        let original = Self.data(channels: channels, bits: bits, length: 97, seed: UInt64(channels * bits))
        #expect(try WaveformData(datBytes: original.datBytes()) == original)
        #expect(try WaveformData(datBytes: original.datBytes(version: 2)) == original)
        #expect(try WaveformData(jsonText: original.jsonText()) == original)
        let bytes = original.datBytes()
        #expect(bytes[0] == (channels == 1 ? 1 : 2))
        #expect(bytes.count == (channels == 1 ? 20 : 24) + 97 * channels * 2 * bits / 8)
    }

    @Test func versionOneIsOnlyForOneChannel() {
        #expect(Self.data(channels: 2, bits: 16, length: 1, seed: 1).datBytes(version: 1)[0] == 2)
        #expect(Self.data(channels: 1, bits: 16, length: 1, seed: 1).datBytes(version: 2)[0] == 2)
    }

    @Test func jsonIsOneLineInAudiowaveformsKeyOrder() {
        let data = WaveformData(
            sampleRate: 8000, samplesPerPixel: 2, bits: 8, channels: 1, length: 2, samples: [-128, 127, 0, -1])
        #expect(
            data.jsonText()
                == #"{"version":2,"channels":1,"sample_rate":8000,"samples_per_pixel":2,"bits":8,"length":2,"data":[-128,127,0,-1]}"#
                + "\n")
    }

    static let header: [UInt8] = [2, 0, 0, 0, 0, 0, 0, 0, 0x44, 0xAC, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]

    static func patched(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
        var header = header + [1, 0, 2, 0]
        header.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        return header
    }

    static let malformedDat: [([UInt8], WaveformFormatError)] = [
        ([], .truncatedHeader(needed: 20, available: 0)),
        (Array(header.prefix(22)), .truncatedHeader(needed: 24, available: 22)),
        (patched(0, [3]), .unsupportedVersion(3, offset: 0)),
        (patched(4, [2]), .unknownFlags(2, offset: 4)),
        (patched(8, [0, 0, 0, 0]), .invalidField(field: "sample_rate", value: 0, offset: 8)),
        (patched(12, [0xFF, 0xFF, 0xFF, 0xFF]), .invalidField(field: "samples_per_pixel", value: -1, offset: 12)),
        (patched(20, [0, 0, 0, 0]), .invalidField(field: "channels", value: 0, offset: 20)),
        // A hostile length: 4 G pairs declared, 4 bytes present; nothing is allocated for them.
        (
            patched(16, [0xFF, 0xFF, 0xFF, 0xFF]),
            .dataSizeMismatch(expectedBytes: 17_179_869_180, availableBytes: 4, offset: 24)
        ),
        (header + [1, 0, 2, 0, 0], .dataSizeMismatch(expectedBytes: 4, availableBytes: 5, offset: 24)),
    ]

    @Test(arguments: malformedDat)
    func malformedDatIsRejected(bytes: [UInt8], error: WaveformFormatError) {
        #expect(throws: error) { try WaveformData(datBytes: bytes) }
    }

    @Test func wellFormedHeaderIsAccepted() throws {
        let data = try WaveformData(datBytes: Self.header + [1, 0, 2, 0])
        #expect(data.samples == [1, 2])
        #expect(data.sampleRate == 44_100 && data.samplesPerPixel == 256 && data.channels == 1)
    }

    static let good =
        #"{"version":2,"channels":1,"sample_rate":8000,"samples_per_pixel":2,"bits":16,"length":1,"data":[-5,5]}"#

    static let malformedJSON: [(String, WaveformFormatError)] = [
        ("", .syntax(expected: "'{'", offset: 0)),
        (good.replacingOccurrences(of: #""bits":16,"#, with: ""), .missingField("bits")),
        (good.replacingOccurrences(of: #""version":2"#, with: #""version":3"#), .unsupportedVersion(3, offset: 11)),
        (good.replacingOccurrences(of: "[-5,5]", with: "[-5,5,6,7]"), .sampleCountMismatch(expected: 2, found: 4)),
        (good.replacingOccurrences(of: "[-5,5]", with: "[-5,40000]"), .sampleOutOfRange(value: 40000, offset: 99)),
        (
            good.replacingOccurrences(of: #""bits":16"#, with: #""bits":8"#).replacingOccurrences(
                of: "[-5,5]", with: "[-5,200]"),
            .sampleOutOfRange(value: 200, offset: 98)
        ),
        (good.replacingOccurrences(of: #""length":1"#, with: #""colour":1"#), .unexpectedField("colour", offset: 77)),
        (good + "x", .syntax(expected: "end of input", offset: 102)),
        (
            good.replacingOccurrences(of: "[-5,5]", with: "[-5,05]"),
            .syntax(expected: "a number without leading zeros", offset: 99)
        ),
        (good.replacingOccurrences(of: "[-5,5]", with: "[-5,5"), .syntax(expected: "',' or ']'", offset: 100)),
        (
            good.replacingOccurrences(of: "8000", with: "123456789012345"),
            .syntax(expected: "a number of at most 12 digits", offset: 40)
        ),
    ]

    @Test(arguments: malformedJSON)
    func malformedJSONIsRejected(text: String, error: WaveformFormatError) {
        #expect(throws: error) { try WaveformData(jsonText: text) }
    }

    @Test func jsonAcceptsWhiteSpaceAnyKeyOrderAndVersionOneWithoutChannels() throws {
        let text = """
            { "data" : [ -5 , 5 ] ,
              "length": 1, "bits": 16, "samples_per_pixel": 2, "sample_rate": 8000, "version": 1 }

            """
        let data = try WaveformData(jsonText: text)
        #expect(data == (try WaveformData(jsonText: Self.good)))
    }
}
