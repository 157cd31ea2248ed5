import OSCCore
import Testing

@testable import KnobLinkCLI

/// The lines of `oscdump` 0.31, as it printed them for these arguments on Debian 12.
@Suite struct DumpFormatTests {
    static let timeTag = OSCTimeTag(seconds: 0xeeb8_a993, fraction: 0x06b8_305d)

    @Test(arguments: [
        (OSCArgument.int32(-5), "i -5"),
        (.int64(1_234_567_890_123), "h 1234567890123"),
        (.float32(0.1), "f 0.100000"),
        (.float32(3.14), "f 3.140000"),
        (.float32(1e20), "f 100000002004087734272.000000"),
        (.float32(1e-7), "f 0.000000"),
        (.float32(-0.0), "f -0.000000"),
        (.float32(.nan), "f nan"),
        (.float32(-.nan), "f -nan"),
        (.float32(.infinity), "f inf"),
        (.float32(123456.789), "f 123456.789062"),
        (.double(123456789.123456789), "d 123456789.123457"),
        (.string("a b"), #"s "a b""#),
        (.string(""), #"s """#),
        (.symbol("sym"), "S 'sym"),
        (.character(UInt8(ascii: "x")), "c 'x'"),
        (.midi(OSCMIDI(rawValue: 0x0a0b_0c0d)), "m MIDI [0x0a 0x0b 0x0c 0x0d]"),
        (.blob([1, 2, 255]), "b [3b 0x1 0x2 0xff]"),
        (.blob([0, 16, 1]), "b [3b 00 0x10 0x1]"),
        (.blob([]), "b [0b ]"),
        (.blob(Array(0..<12)), "b [12b 00 0x1 0x2 0x3 0x4 0x5 0x6 0x7 0x8 0x9 0xa 0xb]"),
        (.blob(Array(0..<13)), "b [13 byte blob]"),
        (.timeTag(OSCTimeTag(seconds: 1, fraction: 2)), "t 00000001.00000002"),
        (.timeTag(.immediately), "t 00000000.00000001"),
        (.true, "T #T"),
        (.false, "F #F"),
        (.nil, "N Nil"),
        (.impulse, "I Infinitum"),
    ])
    func argument(argument: OSCArgument, expected: String) {
        let line = DumpFormat.line(of: OSCMessage("/a", [argument]), timeTag: Self.timeTag, now: .immediately)
        #expect(line == "eeb8a993.06b8305d /a \(expected)\n")
    }

    @Test func messageWithoutArgumentsEndsWithASpace() {
        #expect(
            DumpFormat.line(of: OSCMessage("/e"), timeTag: Self.timeTag, now: .immediately) == "eeb8a993.06b8305d /e \n"
        )
    }

    @Test func immediatelyPrintsTheCurrentTime() {
        let line = DumpFormat.line(of: OSCMessage("/e", [.int32(1)]), timeTag: .immediately, now: Self.timeTag)
        #expect(line == "eeb8a993.06b8305d /e i 1\n")
    }

    @Test func charWithNULIsPrintedRaw() {
        var output: [UInt8] = []
        DumpFormat.append(.character(0), to: &output)
        #expect(output == [0x27, 0, 0x27])
    }

    @Test func arraysAndColoursThatLibloRefusesGetFormsOfTheirOwn() {
        let message = OSCMessage("/x", [.array([.int32(1), .string("s")]), .rgba(OSCRGBA(rawValue: 0x0102_0304))])
        #expect(
            DumpFormat.line(of: message, timeTag: Self.timeTag, now: .immediately)
                == #"eeb8a993.06b8305d /x [is]r [1 "s"] RGBA [0x01 0x02 0x03 0x04]"# + "\n")
    }

    @Test func hexDumpShowsOffsetBytesAndText() {
        let bytes: [UInt8] = Array("/a\0\0,i\0\0".utf8) + [0, 0, 0, 1] + Array("/abcdefgh".utf8)
        #expect(
            DumpFormat.hexDump(bytes) == """
                    0000  2f 61 00 00 2c 69 00 00 00 00 00 01 2f 61 62 63  /a..,i....../abc
                    0010  64 65 66 67 68                                   defgh

                """)
    }
}
