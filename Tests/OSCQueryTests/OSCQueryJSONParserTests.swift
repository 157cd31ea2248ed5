import OSCQuery
import Testing

@Suite struct OSCQueryJSONParserTests {
    private let parser = OSCQueryJSONParser()

    @Test func parsesEveryKindOfValue() throws {
        let text = #" { "a" : [1, -2.5, 3e2, 0, -0.0, true, false, null], "b": {"c": "d"}, "e": "" } "#
        let expected = OSCQueryJSON.object([
            (
                "a",
                .array([.int(1), .double(-2.5), .double(300), .int(0), .double(-0.0), .bool(true), .bool(false), .null])
            ),
            ("b", .object([("c", .string("d"))])), ("e", .string("")),
        ])
        #expect(try parser.parse(text) == expected)
    }

    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"), (#""\u0041\u00e9\u20AC""#, "Aé€"),
        (#""\uD83C\uDF9B""#, "🎛"), ("\"Grüße\"", "Grüße"),
    ])
    func decodesStrings(text: String, expected: String) throws {
        #expect(try parser.parse(text) == .string(expected))
    }

    @Test func keepsMemberOrder() throws {
        let parsed = try parser.parse(#"{"z":1,"a":2,"m":3}"#)
        guard case .object(let members) = parsed else {
            Issue.record("not an object: \(parsed)")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m"])
    }

    @Test func aHugeIntegerBecomesADouble() throws {
        #expect(try parser.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test(arguments: [
        ("", OSCQueryJSONError.unexpectedEnd(offset: 0)),
        ("[1,]", .unexpectedByte(UInt8(ascii: "]"), offset: 3)),
        ("{\"a\":1,}", .unexpectedByte(UInt8(ascii: "}"), offset: 7)),
        ("{\"a\" 1}", .unexpectedByte(UInt8(ascii: "1"), offset: 5)),
        ("{1:2}", .unexpectedByte(UInt8(ascii: "1"), offset: 1)),
        ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), offset: 3)),
        ("01", .invalidNumber(offset: 0)), ("-", .invalidNumber(offset: 0)), ("1.", .invalidNumber(offset: 0)),
        ("[1.e3]", .invalidNumber(offset: 1)), ("1e", .invalidNumber(offset: 0)),
        ("+1", .unexpectedByte(0x2B, offset: 0)),
        (".5", .unexpectedByte(0x2E, offset: 0)), ("NaN", .unexpectedByte(0x4E, offset: 0)),
        ("tru", .unexpectedEnd(offset: 3)), ("nul1", .unexpectedByte(UInt8(ascii: "1"), offset: 3)),
        ("\"abc", .unexpectedEnd(offset: 4)), ("\"a\u{01}\"", .controlCharacterInString(offset: 2)),
        ("\"tab\there\"", .controlCharacterInString(offset: 4)), (#""\x""#, .invalidEscape(offset: 1)),
        (#""\u12G4""#, .invalidEscape(offset: 5)), (#""\uD800""#, .invalidEscape(offset: 1)),
        (#""\uDC00""#, .invalidEscape(offset: 1)), (#""\uD800\u0041""#, .invalidEscape(offset: 1)),
        ("{\"a\":1,\"a\":2}", .duplicateKey("a", offset: 7)), ("1 2", .trailingData(offset: 2)),
        ("{} x", .trailingData(offset: 3)), ("// c\n1", .unexpectedByte(UInt8(ascii: "/"), offset: 0)),
    ])
    func refusesWhatRFC8259Refuses(text: String, error: OSCQueryJSONError) {
        #expect(throws: error) { try parser.parse(text) }
    }

    @Test(
        arguments: [
            ([0x22, 0xC3, 0x22], 2), ([0x22, 0xFF, 0x22], 1), ([0x22, 0xC0, 0xAF, 0x22], 1),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 2), ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2), ([0x22, 0x80, 0x22], 1),
        ] as [([UInt8], Int)])
    func refusesInvalidUTF8InStrings(bytes: [UInt8], offset: Int) {
        #expect(throws: OSCQueryJSONError.invalidUTF8(offset: offset)) { try parser.parse(bytes) }
    }

    @Test func refusesNestingPastTheDepthLimit() throws {
        let shallow = OSCQueryJSONParser(maximumSize: 1000, maximumDepth: 3)
        #expect(try shallow.parse("[[[1]]]") == .array([.array([.array([.int(1)])])]))
        #expect(throws: OSCQueryJSONError.tooDeep(offset: 3, limit: 3)) { try shallow.parse("[[[[1]]]]") }
        #expect(throws: OSCQueryJSONError.tooDeep(offset: 13, limit: 3)) {
            try shallow.parse(#"{"a":{"b":[1,{"c":2}]}}"#)
        }
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: OSCQueryJSONError.tooDeep(offset: 16, limit: 16)) {
            try OSCQueryJSONParser(maximumSize: 200_000).parse(deep)
        }
    }

    @Test func refusesTextsOverTheSizeLimitBeforeReadingThem() {
        let small = OSCQueryJSONParser(maximumSize: 8)
        #expect(throws: OSCQueryJSONError.tooLarge(size: 9, limit: 8)) { try small.parse("\"1234567\"") }
        #expect(throws: Never.self) { try small.parse("\"123456\"") }
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(
            OSCQueryJSONError.unexpectedByte(UInt8(ascii: "}"), offset: 7).description == "unexpected '}' at offset 7")
        #expect(OSCQueryJSONError.unexpectedByte(0x01, offset: 2).description == "unexpected byte 0x01 at offset 2")
        #expect(OSCQueryJSONError.duplicateKey("a", offset: 7).offset == 7)
    }
}
