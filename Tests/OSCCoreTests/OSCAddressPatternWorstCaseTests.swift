import Testing

@testable import OSCCore

/// Hostile patterns must cost polynomial work, bounded here by the matcher's step counter (never
/// by a timer, which a loaded machine would make flaky).
@Suite struct OSCAddressPatternWorstCaseTests {
    static func steps(_ pattern: [UInt8], _ address: [UInt8]) throws -> (matched: Bool, steps: Int) {
        _ = try pattern.withUnsafeBytes { try OSCAddressPattern.validate(pattern: $0) }
        var steps = 0
        let matched = pattern.withUnsafeBytes { p in
            address.withUnsafeBytes { a in
                OSCAddressPatternMatcher.matches(pattern: p, from: 0, address: a, from: 0, steps: &steps)
            }
        }
        return (matched, steps)
    }

    @Test func manyStarsAgainstALongPart() throws {
        // A backtracking matcher takes exponential time on `*a*a*a…*b` against `aaaa…`.
        let pattern = Array(("/" + String(repeating: "*a", count: 20) + "*b").utf8)
        let address = Array(("/" + String(repeating: "a", count: 10_000)).utf8)
        let result = try Self.steps(pattern, address)
        #expect(result.matched == false)
        #expect(result.steps < 3 * 10_000)
    }

    @Test func bracesThatCouldBacktrackExponentially() throws {
        // `{a,aa}` repeated: naive alternative-by-alternative backtracking is exponential.
        let pattern = Array(("/" + String(repeating: "{a,aa}", count: 30) + "b").utf8)
        let address = Array(("/" + String(repeating: "a", count: 60)).utf8)
        let result = try Self.steps(pattern, address)
        #expect(result.matched == false)
        #expect(result.steps < 20_000)
    }

    @Test func bracesAndStarsOnALongPart() throws {
        let pattern = Array(("/" + String(repeating: "*{a,b,ab}", count: 10) + "c").utf8)
        let address = Array(("/" + String(repeating: "ab", count: 2_000)).utf8)
        let result = try Self.steps(pattern, address)
        #expect(result.matched == false)
        // About (pattern bytes) × (address bytes): 91 × 4000.
        #expect(result.steps < 2 * 91 * 4_000)
    }

    @Test func manyDoubleSlashesAgainstADeepAddress() throws {
        let pattern = Array((String(repeating: "//a", count: 15) + "//b").utf8)
        let address = Array((String(repeating: "/a", count: 2_000)).utf8)
        let result = try Self.steps(pattern, address)
        #expect(result.matched == false)
        #expect(result.steps < 5 * 2_000)
    }

    @Test func matchingDeepPatternsStillSucceeds() throws {
        let pattern = Array((String(repeating: "//a", count: 15) + "//b").utf8)
        let address = Array((String(repeating: "/a", count: 2_000) + "/b").utf8)
        let result = try Self.steps(pattern, address)
        #expect(result.matched)
        #expect(result.steps < 5 * 2_000)
    }
}
