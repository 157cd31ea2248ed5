import Testing

@testable import Zeroconf

@Suite struct ZeroconfServiceNameTests {
    @Test func keepsAShortNameAsItIs() {
        #expect(ZeroconfServiceName.sanitized("Studio A #1") == "Studio A #1")
    }

    @Test func cutsALongASCIINameToSixtyThreeBytes() {
        let name = String(repeating: "abcdefghij", count: 10)
        #expect(ZeroconfServiceName.sanitized(name) == String(name.prefix(63)))
    }

    @Test func cutsBeforeACharacterThatWouldNotFit() {
        // 31 two-byte characters are 62 bytes; a 32nd would make 64.
        let name = String(repeating: "é", count: 40)
        let sanitized = ZeroconfServiceName.sanitized(name)
        #expect(sanitized == String(repeating: "é", count: 31))
        #expect(sanitized.utf8.count == 62)
    }

    @Test func neverSplitsAnEmojiSequence() {
        // A family emoji is 25 bytes of UTF-8 (four people and three zero-width joiners).
        let family = "👨‍👩‍👧‍👦"
        let name = String(repeating: "x", count: 50) + family
        #expect(ZeroconfServiceName.sanitized(name) == String(repeating: "x", count: 50))
        #expect(ZeroconfServiceName.sanitized("ab" + family + family) == "ab" + family + family)
    }

    @Test func dropsWhiteSpaceLeftAtTheCut() {
        let name = String(repeating: "a", count: 62) + " b"
        #expect(ZeroconfServiceName.sanitized(name) == String(repeating: "a", count: 62))
    }

    @Test func turnsControlCharactersIntoSpaces() {
        #expect(ZeroconfServiceName.sanitized("Stage\tleft\n") == "Stage left")
    }

    @Test(arguments: ["", "   ", "\n\t"]) func fallsBackWhenNothingIsLeft(name: String) {
        #expect(ZeroconfServiceName.sanitized(name) == "KnobLink")
    }

    @Test func advertiserPublishesTheSanitizedName() {
        let advertiser = ZeroconfAdvertiser(
            name: "  " + String(repeating: "n", count: 70), services: [.osc(port: 1)], log: { _, _ in })
        #expect(advertiser.name == String(repeating: "n", count: 63))
    }
}
