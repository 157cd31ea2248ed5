import OSCCore
import Testing

@testable import KnobLinkCLI

@Suite struct MessageValueParserTests {
    @Test(arguments: [
        ("i", ["-5"], [OSCArgument.int32(-5)]),
        ("i", ["2147483647"], [.int32(.max)]),
        ("h", ["-9223372036854775808"], [.int64(.min)]),
        ("f", ["3.14"], [.float32(3.14)]),
        ("f", ["1e3"], [.float32(1000)]),
        ("f", ["inf"], [.float32(.infinity)]),
        ("d", ["0.1"], [.double(0.1)]),
        ("s", ["a b"], [.string("a b")]),
        ("s", [""], [.string("")]),
        ("S", ["sym"], [.symbol("sym")]),
        ("c", ["xyz"], [.character(UInt8(ascii: "x"))]),
        ("c", [""], [.character(0)]),
        ("m", ["0a0b0c0d"], [.midi(OSCMIDI(port: 10, status: 11, data1: 12, data2: 13))]),
        ("m", ["1"], [.midi(OSCMIDI(rawValue: 1))]),
        ("r", ["0xff000080"], [.rgba(OSCRGBA(red: 255, green: 0, blue: 0, alpha: 128))]),
        ("b", ["01ff"], [.blob([1, 255])]),
        ("b", ["0x00"], [.blob([0])]),
        ("b", [""], [.blob([])]),
        ("t", ["00000001.00000002"], [.timeTag(OSCTimeTag(seconds: 1, fraction: 2))]),
        ("t", ["immediately"], [.timeTag(.immediately)]),
        ("TFNI", [], [.true, .false, .nil, .impulse]),
        ("i[sT]f", ["1", "x", "2"], [.int32(1), .array([.string("x"), .true]), .float32(2)]),
        ("", [], []),
    ])
    func parses(types: String, values: [String], expected: [OSCArgument]) throws {
        #expect(try MessageValueParser.arguments(types: types, values: values) == expected)
    }

    @Test(arguments: [
        (
            "i", ["2147483648"],
            UsageError.invalidMessageValue("2147483648", type: "i", position: 1, expected: "a 32-bit decimal integer")
        ),
        ("i", ["0x10"], .invalidMessageValue("0x10", type: "i", position: 1, expected: "a 32-bit decimal integer")),
        ("Tf", ["x"], .invalidMessageValue("x", type: "f", position: 1, expected: "a number")),
        (
            "m", ["123456789"],
            .invalidMessageValue("123456789", type: "m", position: 1, expected: "up to 8 hexadecimal digits")
        ),
        (
            "b", ["abc"],
            .invalidMessageValue("abc", type: "b", position: 1, expected: "an even number of hexadecimal digits")
        ),
        (
            "b", ["zz"],
            .invalidMessageValue("zz", type: "b", position: 1, expected: "an even number of hexadecimal digits")
        ),
        ("if", ["1"], .missingMessageValue(type: "f", position: 2)),
        ("i", ["1", "2"], .unexpectedArgument("2")),
        ("q", ["1"], .unsupportedType("q")),
        ("[i", ["1"], .other("Unbalanced '[' in '[i'")),
        ("i]", ["1"], .other("Unbalanced ']' in 'i]'")),
    ])
    func refuses(types: String, values: [String], expected: UsageError) {
        #expect(throws: expected) { try MessageValueParser.arguments(types: types, values: values) }
    }

    @Test func timeTagTextReadsWhatDumpPrints() throws {
        let timeTag = OSCTimeTag(seconds: 0xeeb8_a9aa, fraction: 0x3de5_3a81)
        var printed: [UInt8] = []
        DumpFormat.appendTimeTag(timeTag, to: &printed)
        #expect(TimeTagText.parse(String(decoding: printed, as: UTF8.self)) == timeTag)
        #expect(TimeTagText.parse("1.2.3") == nil)
        #expect(TimeTagText.parse("+x") == nil)
        let later = try #require(TimeTagText.parse("+10"))
        #expect(abs(later.secondsSince1970 - TimeTagText.now().secondsSince1970 - 10) < 1)
    }
}
