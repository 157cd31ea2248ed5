import Testing

@testable import OSCCore

@Suite struct OSCAddressPatternMatchingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let pattern: String
        let address: String
        let matches: Bool
        var testDescription: String { "\(pattern) \(matches ? "matches" : "does not match") \(address)" }
    }

    static func yes(_ pattern: String, _ address: String) -> Case {
        Case(pattern: pattern, address: address, matches: true)
    }
    static func no(_ pattern: String, _ address: String) -> Case {
        Case(pattern: pattern, address: address, matches: false)
    }

    static let literals: [Case] = [
        yes("/knob/gain", "/knob/gain"),
        no("/knob/gain", "/knob/gai"),
        no("/knob/gain", "/knob/gainx"),
        no("/knob/gain", "/knob"),
        no("/knob", "/knob/gain"),
        yes("/a-b!c", "/a-b!c"),
    ]

    static let questionMarks: [Case] = [
        yes("/knob/p?", "/knob/p1"),
        no("/knob/p?", "/knob/p"),
        no("/knob/p?", "/knob/p10"),
        yes("/?/?", "/a/b"),
        no("/a?b", "/a/b"),  // `?` never matches `/`
    ]

    static let stars: [Case] = [
        yes("/knob/*", "/knob/gain"),
        yes("/knob/p1*", "/knob/p1"),
        yes("/knob/p1*", "/knob/p19"),
        no("/knob/p1*", "/knob/p2"),
        yes("/*/gain", "/knob/gain"),
        no("/*", "/knob/gain"),  // `*` never crosses `/` (liblo's does)
        no("/knob/*", "/knob/a/b"),
        yes("/*a*b", "/xaxxb"),
        no("/*a*b", "/xaxxbc"),
        yes("/**", "/x"),
        yes("/a*", "/a"),
        yes("/*n*", "/knob"),
        yes("/*b", "/knob"),
        no("/*c", "/knob"),
        yes("/k*o*b", "/knob"),
        yes("/*/*/*", "/a/b/c"),
        no("/*/*/*", "/a/b"),
    ]

    static let brackets: [Case] = [
        yes("/p[abc]", "/pb"),
        no("/p[abc]", "/pd"),
        yes("/p[a-z]", "/pq"),
        no("/p[a-z]", "/pQ"),
        yes("/p[0-9a-f]", "/pe"),
        no("/p[0-9a-f]", "/pg"),
        yes("/p[!a-z]", "/pQ"),
        no("/p[!a-z]", "/pq"),
        yes("/p[-a]", "/p-"),  // `-` first is literal
        yes("/p[a-]", "/p-"),  // `-` last is literal
        yes("/p[a-]", "/pa"),
        no("/p[a-]", "/pb"),
        yes("/p[]a]", "/p]"),  // `]` first is literal
        yes("/p[]a]", "/pa"),
        no("/p[]a]", "/pb"),
        yes("/p[!]a]", "/pb"),
        no("/p[!]a]", "/pa"),
        yes("/p[!-]", "/pa"),
        no("/p[!-]", "/p-"),
        no("/p[a-c]", "/p"),
        yes("/[a-c][0-9]*", "/b7xyz"),
        yes("/x[*]", "/x*"),  // inside brackets, `*` is literal
        no("/x[*]", "/xa"),
    ]

    static let braces: [Case] = [
        yes("/{foo,bar}", "/foo"),
        yes("/{foo,bar}", "/bar"),
        no("/{foo,bar}", "/baz"),
        no("/{foo,bar}", "/fo"),
        no("/{foo,bar}", "/foobar"),
        yes("/{foo,bar}x", "/barx"),
        yes("/{,a}x", "/x"),  // empty alternative first
        yes("/{,a}x", "/ax"),
        yes("/{a,}x", "/x"),  // empty alternative last
        yes("/{a,,b}x", "/x"),  // empty alternative in the middle
        yes("/a{}b", "/ab"),
        no("/a{}b", "/axb"),
        yes("/{a,ab}c", "/abc"),  // the first alternative is a dead end
        yes("/{ab,a}bc", "/abc"),
        yes("/{a,b}{a,b}", "/ba"),
        no("/{a,b}{a,b}", "/bc"),
        yes("/{foo,bar}*", "/foolish"),
        yes("/*{ab,b}x", "/zzabx"),
        yes("/p{1,2}[0-9]", "/p25"),
        no("/p{1,2}[0-9]", "/p35"),
        yes("/{knob,toggle}/*", "/toggle/mute"),
        yes("/?{a,b}?", "/xay"),
        yes("/{-,!}", "/!"),
    ]

    static let doubleSlash: [Case] = [
        // At the start.
        yes("//gain", "/gain"),
        yes("//gain", "/knob/gain"),
        yes("//gain", "/a/b/c/gain"),
        no("//gain", "/knob/gain/x"),
        no("//gain", "/knob/again"),
        // In the middle.
        yes("/a//b", "/a/b"),
        yes("/a//b", "/a/x/b"),
        yes("/a//b", "/a/x/y/b"),
        no("/a//b", "/b"),
        no("/a//b", "/a/x/y"),
        yes("/a//b/c", "/a/b/b/c"),  // the first `b` is not the right one
        yes("/a//b//c", "/a/x/b/y/z/c"),
        no("/a//b//c", "/a/x/c/y/b"),
        yes("//p*", "/knob/p1"),
        yes("/a//[bc]", "/a/x/c"),
        // At the end: the address itself and everything below.
        yes("/a//", "/a"),
        yes("/a//", "/a/b"),
        yes("/a//", "/a/b/c"),
        no("/a//", "/b/a"),
        no("/a//", "/ab"),
        yes("//", "/anything/at/all"),
        yes("/*//", "/knob/gain"),
    ]

    /// An address must start with `/` to match anything: its first byte is a part boundary, not a wildcard's.
    static let withoutLeadingSlash: [Case] = [
        no("/*", "x"),
        no("/*", ""),
        no("/knob/p50", "\u{0F}knob/p50"),
        no("//", "knob"),
        no("/?", "ab"),
    ]

    @Test(arguments: literals + questionMarks + stars + brackets + braces + doubleSlash + withoutLeadingSlash)
    func matches(_ testCase: Case) throws {
        let pattern = try OSCAddressPattern(testCase.pattern)
        #expect(pattern.matches(testCase.address) == testCase.matches)
        var addressBytes = Array(testCase.address.utf8)
        let direct = try addressBytes.withUnsafeMutableBytes { address in
            try Array(testCase.pattern.utf8).withUnsafeBytes { pattern in
                try OSCAddressPattern.matches(pattern: pattern, address: UnsafeRawBufferPointer(address))
            }
        }
        #expect(direct == testCase.matches)
    }

    /// The greedy matcher and the brace automaton must agree on patterns without braces.
    @Test(arguments: literals + questionMarks + stars + brackets)
    func automatonAgreesWithGreedyMatcher(_ testCase: Case) throws {
        _ = try OSCAddressPattern(testCase.pattern)
        let pattern = Array(testCase.pattern.utf8)
        let address = Array(testCase.address.utf8)
        guard !pattern.contains(UInt8(ascii: "/"), after: 0), !address.contains(UInt8(ascii: "/"), after: 0) else {
            return
        }
        var steps = 0
        let (greedy, automaton) = pattern.withUnsafeBytes { p in
            address.withUnsafeBytes { a in
                (
                    OSCAddressPatternMatcher.matchesPartGreedy(
                        pattern: p, 1, p.count, text: a, 1, a.count, steps: &steps),
                    OSCAddressPatternMatcher.matchesPartWithBraces(
                        pattern: p, 1, p.count, text: a, 1, a.count, steps: &steps)
                )
            }
        }
        #expect(greedy == testCase.matches)
        #expect(automaton == testCase.matches)
    }

    @Test func hasWildcardsTellsPatternsFromAddresses() throws {
        #expect(try OSCAddressPattern("/knob/gain").hasWildcards == false)
        #expect(try OSCAddressPattern("/knob/g?in").hasWildcards)
        #expect(try OSCAddressPattern("//gain").hasWildcards)
        #expect(try OSCAddressPattern("/a/{b}").hasWildcards)
        #expect(try OSCAddressPattern("/knob/g?in").description == "/knob/g?in")
    }

    @Test func matchesUTF8BytesOfTheAddressAsGiven() throws {
        // Addresses are not validated when matched: bytes outside the pattern's set just fail.
        let pattern = try OSCAddressPattern("/k?")
        let truncated: [UInt8] = [UInt8(ascii: "/"), UInt8(ascii: "k"), 0xC3, 0xA9]
        #expect(truncated.withUnsafeBytes { pattern.matches($0) } == false)
        #expect(pattern.matches("/k\u{E9}") == false)  // two UTF-8 bytes, `?` takes one
        #expect(try OSCAddressPattern("/k??").matches("/k\u{E9}"))
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(_ byte: UInt8, after start: Int) -> Bool {
        self[(start + 1)...].contains(byte)
    }
}
