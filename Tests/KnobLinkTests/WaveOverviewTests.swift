import OSCCore
import Testing

@testable import KnobLink

/// Overview frames: split to the datagram size with one seq and increasing offsets, blobs of
/// big-endian float32, and the float fallback at most 64 values a message.
@Suite struct WaveOverviewTests {
    @Test(arguments: [(1, 8192), (64, 8192), (2039, 8192), (2040, 8192), (65536, 8192), (1000, 1472), (65536, 65536)])
    func blobFramesFitTheDatagramAndReassemble(count: Int, limit: Int) throws {
        let bars = WaveTesting.ramp(count)
        let messages = WaveOverview.messages(seq: 7, bars: bars, floats: false, datagramLimit: limit)
        #expect(
            messages.count == (count + WaveOverview.barsPerBlobMessage(datagramLimit: limit) - 1)
                / WaveOverview.barsPerBlobMessage(datagramLimit: limit))
        var offset: Int32 = 0
        for message in messages {
            #expect(message.address == "/wave/bars")
            #expect(message.encoded().count <= limit)
            #expect(Array(message.arguments.prefix(3)) == [.int32(7), .int32(offset), .int32(Int32(count))])
            offset += Int32(WaveTesting.barValues(message).count)
        }
        #expect(WaveTesting.overviews(messages)[7] == bars)
    }

    @Test func blobDataIsBigEndianFloat32() {
        let messages = WaveOverview.messages(seq: 0, bars: [1, 0.5], floats: false, datagramLimit: 1472)
        #expect(messages.first?.arguments.last == .blob([0x3F, 0x80, 0, 0, 0x3F, 0, 0, 0]))
    }

    @Test(arguments: [1, 64, 65, 200])
    func floatFramesCarryAtMost64Values(count: Int) {
        let bars = WaveTesting.ramp(count)
        let messages = WaveOverview.messages(seq: 3, bars: bars, floats: true, datagramLimit: 1472)
        #expect(messages.count == (count + 63) / 64)
        #expect(messages.allSatisfy { $0.address == "/wave/bars/f" && $0.arguments.count <= 3 + 64 })
        #expect(
            messages.allSatisfy {
                $0.arguments.dropFirst(3).allSatisfy { if case .float32 = $0 { true } else { false } }
            })
        #expect(WaveTesting.overviews(messages)[3] == bars)
    }

    @Test func heightsAreClampedToZeroToOne() {
        let messages = WaveOverview.messages(seq: 0, bars: [-1, 2, .nan, 0.25], floats: true, datagramLimit: 1472)
        #expect(WaveTesting.barValues(messages[0]) == [0, 1, 0, 0.25])
    }

    @Test func anEmptyOverviewIsOneMessageWithTotalZero() {
        let messages = WaveOverview.messages(seq: 1, bars: [], floats: false, datagramLimit: 1472)
        #expect(messages == [OSCMessage("/wave/bars", [.int32(1), .int32(0), .int32(0), .blob([])])])
    }
}
