import OSCCore
import Testing

@Suite struct OSCRoundTripTests {
    static let everyType: [OSCArgument] = [
        .int32(.min), .int32(.max), .float32(-0.25), .float32(.infinity), .string(""), .string("héllo €"),
        .blob([]), .blob([0xFF]), .blob(Array(0..<64)), .true, .false, .nil, .impulse,
        .timeTag(.immediately), .timeTag(OSCTimeTag(rawValue: .max)), .int64(.min), .int64(.max),
        .double(-1e300), .double(.leastNonzeroMagnitude), .symbol("sym"), .symbol(""), .character(0),
        .character(255), .rgba(OSCRGBA(red: 1, green: 2, blue: 3, alpha: 4)),
        .midi(OSCMIDI(port: 0, status: 0xB0, data1: 7, data2: 127)), .array([]),
        .array([.int32(1), .array([.string("in"), .array([.true])]), .blob([1, 2])]),
    ]

    @Test(arguments: everyType)
    func everyTypeSurvivesAlone(_ argument: OSCArgument) throws {
        let message = OSCMessage("/type", [argument])
        #expect(try OSCPacket.decode(message.encoded(), options: .strict) == .message(message))
    }

    @Test func everyTypeSurvivesTogether() throws {
        let message = OSCMessage("/all/types", Self.everyType)
        let bytes = message.encoded()
        #expect(bytes.count == message.encodedSize)
        #expect(bytes.count % 4 == 0)
        #expect(try OSCPacket.decode(bytes, options: .strict) == .message(message))
    }

    @Test func nestedBundlesSurvive() throws {
        var bundle = OSCBundle(timeTag: OSCTimeTag(rawValue: 100), [.message(OSCMessage("/leaf", [.int32(8)]))])
        // Seven levels inside the outermost: depth 8, the default limit.
        for level in 0..<7 {
            bundle = OSCBundle(
                timeTag: OSCTimeTag(rawValue: UInt64(99 - level)),
                [.message(OSCMessage("/level", [.int32(Int32(level))])), .bundle(bundle)])
        }
        let packet = OSCPacket.bundle(bundle)
        #expect(try OSCPacket.decode(packet.encoded()) == packet)
    }

    @Test(arguments: 0..<300)
    func generatedMessagesSurvive(seed: Int) throws {
        var generator = PacketGenerator(seed: UInt64(seed), libloTypesOnly: false)
        let message = generator.message()
        let bytes = message.encoded()
        #expect(bytes.count == message.encodedSize)
        let decoded = try OSCPacket.decode(bytes, options: .strict)
        #expect(decoded == .message(message), "\(hex(bytes))")
        let view = try bytes.withUnsafeBytes { raw throws(OSCDecodingError) in try OSCMessageView(raw).makeMessage() }
        #expect(view == message)
    }

    @Test(arguments: 0..<100)
    func generatedBundlesSurvive(seed: Int) throws {
        var generator = PacketGenerator(seed: UInt64(seed) &+ 10_000, libloTypesOnly: false)
        let packet = OSCPacket.bundle(generator.bundle())
        let bytes = packet.encoded()
        #expect(bytes.count == packet.encodedSize)
        #expect(try OSCPacket.decode(bytes, options: .strict) == packet)
    }

    @Test func encodingIntoTooSmallABufferIsCaughtBeforeWritingPastIt() async {
        // A buffer smaller than encodedSize is a programming error; it must trap, not overrun.
        await #expect(processExitsWith: .failure) {
            let message = OSCMessage("/a", [.string("long enough to overflow")])
            var buffer = [UInt8](repeating: 0, count: 12)
            buffer.withUnsafeMutableBytes { _ = message.encode(into: $0) }
        }
    }
}

@Suite struct OSCTimeTagTests {
    @Test func immediatelyIsOne() {
        #expect(OSCTimeTag.immediately.rawValue == 1)
        #expect(OSCTimeTag.immediately.isImmediately)
        #expect(OSCTimeTag.immediately < OSCTimeTag(secondsSince1970: 0))
    }

    @Test func unixEpochIsNTPSecond2208988800() {
        let epoch = OSCTimeTag(secondsSince1970: 0)
        #expect(epoch.seconds == 2_208_988_800)
        #expect(epoch.fraction == 0)
        #expect(epoch.secondsSince1970 == 0)
        #expect(OSCTimeTag(secondsSince1970: 0, nanoseconds: 0) == epoch)
    }

    @Test func halfASecondIsHalfTheFraction() {
        let tag = OSCTimeTag(secondsSince1970: 1_700_000_000.5)
        #expect(tag.seconds == 3_908_988_800)
        #expect(tag.fraction == 0x8000_0000)
        #expect(tag.unixTime.seconds == 1_700_000_000)
        #expect(tag.unixTime.nanoseconds == 500_000_000)
    }

    @Test(arguments: 0..<2000)
    func secondsRoundTripWithinAMicrosecond(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        // Anywhere in the NTP era, 1900 to 2036, with random fractions.
        let seconds = Double.random(in: -2_208_988_800..<2_085_978_495, using: &random)
        let tag = OSCTimeTag(secondsSince1970: seconds)
        #expect(abs(tag.secondsSince1970 - seconds) < 1e-6)
        let back = OSCTimeTag(secondsSince1970: tag.secondsSince1970)
        let difference = back.rawValue > tag.rawValue ? back.rawValue - tag.rawValue : tag.rawValue - back.rawValue
        #expect(difference < 4295, "more than 1 µs apart: \(tag.rawValue) \(back.rawValue)")
    }

    @Test(arguments: 0..<2000)
    func nanosecondsRoundTripExactly(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let seconds = Int64.random(in: -2_208_988_800..<2_085_978_495, using: &random)
        let nanoseconds = UInt32.random(in: 0..<1_000_000_000, using: &random)
        let tag = OSCTimeTag(secondsSince1970: seconds, nanoseconds: nanoseconds)
        #expect(tag.unixTime.seconds == seconds)
        #expect(tag.unixTime.nanoseconds == nanoseconds)
    }

    @Test func outOfRangeTimesClamp() {
        #expect(OSCTimeTag(secondsSince1970: -3e9).rawValue == 0)
        #expect(OSCTimeTag(secondsSince1970: 3e9).rawValue == .max)
        #expect(OSCTimeTag(secondsSince1970: .nan).rawValue == 0)
        #expect(OSCTimeTag(secondsSince1970: .infinity).rawValue == .max)
        #expect(OSCTimeTag(secondsSince1970: Int64.max, nanoseconds: 0).rawValue == .max)
        #expect(OSCTimeTag(secondsSince1970: Int64.min, nanoseconds: 0).rawValue == 0)
    }

    @Test func theLastSecondOfTheEraNeverWrapsToZero() {
        // NTP second 2^32 - 1, and a fraction so close to 1 that the Double rounds past the era.
        let lastSecond = Double(UInt32.max) - 2_208_988_800
        #expect(OSCTimeTag(secondsSince1970: lastSecond + 0.999_999_999_9).rawValue >= UInt64(UInt32.max) << 32)
        #expect(OSCTimeTag(secondsSince1970: lastSecond + 0.5).seconds == UInt32.max)
    }

    @Test func timeTagsOrderByRawValue() {
        let early = OSCTimeTag(secondsSince1970: 10)
        let late = OSCTimeTag(secondsSince1970: 10.000_001)
        #expect(early < late)
        #expect(OSCTimeTag(seconds: 1, fraction: 0) > OSCTimeTag(seconds: 0, fraction: .max))
    }
}
