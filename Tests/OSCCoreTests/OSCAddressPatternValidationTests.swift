import OSCCore
import Testing

@Suite struct OSCAddressPatternValidationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let error: OSCAddressError
        var testDescription: String { "\(text) → \(error)" }
    }

    static let badAddresses: [Case] = [
        Case(text: "", error: .empty),
        Case(text: "knob", error: .missingLeadingSlash(found: UInt8(ascii: "k"))),
        Case(text: "#bundle", error: .missingLeadingSlash(found: UInt8(ascii: "#"))),
        Case(text: "/", error: .emptySegment(offset: 1)),
        Case(text: "/knob/", error: .emptySegment(offset: 6)),
        Case(text: "/knob//gain", error: .emptySegment(offset: 6)),
        Case(text: "/knob gain", error: .invalidCharacter(0x20, offset: 5)),
        Case(text: "/knob#1", error: .invalidCharacter(UInt8(ascii: "#"), offset: 5)),
        Case(text: "/knob\t", error: .invalidCharacter(0x09, offset: 5)),
        Case(text: "/kn\u{7F}", error: .invalidCharacter(0x7F, offset: 3)),
        Case(text: "/caf\u{E9}", error: .invalidCharacter(0xC3, offset: 4)),
        Case(text: "/knob/p*", error: .patternCharacterInAddress(UInt8(ascii: "*"), offset: 7)),
        Case(text: "/knob/p?", error: .patternCharacterInAddress(UInt8(ascii: "?"), offset: 7)),
        Case(text: "/a[b]", error: .patternCharacterInAddress(UInt8(ascii: "["), offset: 2)),
        Case(text: "/a]", error: .patternCharacterInAddress(UInt8(ascii: "]"), offset: 2)),
        Case(text: "/{a}", error: .patternCharacterInAddress(UInt8(ascii: "{"), offset: 1)),
        Case(text: "/a}", error: .patternCharacterInAddress(UInt8(ascii: "}"), offset: 2)),
        Case(text: "/a,b", error: .patternCharacterInAddress(UInt8(ascii: ","), offset: 2)),
    ]

    static let badPatterns: [Case] = [
        Case(text: "", error: .empty),
        Case(text: "*", error: .missingLeadingSlash(found: UInt8(ascii: "*"))),
        Case(text: "/", error: .emptySegment(offset: 1)),
        Case(text: "/a/", error: .emptySegment(offset: 3)),
        Case(text: "///a", error: .emptySegment(offset: 2)),
        Case(text: "/a///b", error: .emptySegment(offset: 4)),
        Case(text: "/a////", error: .emptySegment(offset: 4)),
        Case(text: "/a b", error: .invalidCharacter(0x20, offset: 2)),
        Case(text: "/a#", error: .invalidCharacter(UInt8(ascii: "#"), offset: 2)),
        Case(text: "/p[abc", error: .unterminatedBracket(offset: 2)),
        Case(text: "/p[", error: .unterminatedBracket(offset: 2)),
        Case(text: "/p[]", error: .unterminatedBracket(offset: 2)),  // `]` first is literal
        Case(text: "/p[!]", error: .unterminatedBracket(offset: 2)),
        Case(text: "/p[a-", error: .unterminatedBracket(offset: 2)),
        Case(text: "/p[z-a]", error: .invalidRange(lower: UInt8(ascii: "z"), upper: UInt8(ascii: "a"), offset: 3)),
        Case(text: "/p[ab9-0]", error: .invalidRange(lower: UInt8(ascii: "9"), upper: UInt8(ascii: "0"), offset: 5)),
        Case(text: "/p[a/b]", error: .slashInBrackets(offset: 4)),
        Case(text: "/p[a b]", error: .invalidCharacter(0x20, offset: 4)),
        Case(text: "/p]", error: .unexpectedCharacter(UInt8(ascii: "]"), offset: 2)),
        Case(text: "/p[a]]", error: .unexpectedCharacter(UInt8(ascii: "]"), offset: 5)),
        Case(text: "/p{a,b", error: .unterminatedBrace(offset: 2)),
        Case(text: "/p{", error: .unterminatedBrace(offset: 2)),
        Case(text: "/p}", error: .unexpectedCharacter(UInt8(ascii: "}"), offset: 2)),
        Case(text: "/p,q", error: .unexpectedCharacter(UInt8(ascii: ","), offset: 2)),
        Case(text: "/{a,{b}}", error: .nestedBrace(offset: 4)),
        Case(text: "/{a,b*}", error: .characterNotAllowedInBraces(UInt8(ascii: "*"), offset: 5)),
        Case(text: "/{a?}", error: .characterNotAllowedInBraces(UInt8(ascii: "?"), offset: 3)),
        Case(text: "/{a[b]}", error: .characterNotAllowedInBraces(UInt8(ascii: "["), offset: 3)),
        Case(text: "/{a/b}", error: .characterNotAllowedInBraces(UInt8(ascii: "/"), offset: 3)),
        Case(text: "/{a b}", error: .invalidCharacter(0x20, offset: 3)),
    ]

    static let goodPatterns = [
        "/knob/gain", "//gain", "/a//b", "/a//", "//", "/p[]a]", "/p[!]a]", "/p[a-]", "/p[-a]", "/p[!-]",
        "/{}", "/{,}", "/{a,,b}", "/*?*", "/[a-z][0-9]{x,y}*", "/a-b!c~", "/p[a-a]",
    ]

    @Test(arguments: badAddresses)
    func rejectsAddress(_ testCase: Case) {
        #expect(throws: testCase.error) { try OSCAddressPattern.validate(address: testCase.text) }
    }

    @Test(arguments: badPatterns)
    func rejectsPattern(_ testCase: Case) {
        #expect(throws: testCase.error) { try OSCAddressPattern.validate(pattern: testCase.text) }
        #expect(throws: testCase.error) { try OSCAddressPattern(testCase.text) }
    }

    @Test(arguments: goodPatterns)
    func acceptsPattern(_ text: String) throws {
        let pattern = try OSCAddressPattern(text)
        #expect(pattern.bytes == Array(text.utf8))
    }

    @Test(arguments: ["/knob/gain", "/a", "/a-b/c_d/e.f/1~2!"])
    func acceptsAddress(_ text: String) throws {
        try OSCAddressPattern.validate(address: text)
        #expect(try OSCAddressPattern.validate(pattern: text) == false)
    }

    @Test func errorNamesItsOffset() {
        #expect(OSCAddressError.unterminatedBracket(offset: 7).offset == 7)
        #expect(OSCAddressError.invalidRange(lower: 0x7A, upper: 0x61, offset: 3).offset == 3)
        #expect(OSCAddressError.empty.offset == 0)
        #expect(
            OSCAddressError.invalidRange(lower: 0x7A, upper: 0x61, offset: 3).description
                == "range 'z'-'a' at offset 3 goes downwards")
        #expect(OSCAddressError.invalidCharacter(0x09, offset: 5).description == "invalid character 0x09 at offset 5")
    }
}
