import OSCCore
import Testing

/// Compares the matcher with a deliberately naive one: a direct backtracking reading of the
/// specification (exponential, so only for short inputs), on generated patterns that use every
/// construct, `//` and empty brace alternatives included, which liblo cannot check.
@Suite struct OSCAddressPatternReferenceTests {
    /// Whether `address[a...]` matches `pattern[p...]`, trying every possibility.
    static func reference(_ pattern: [UInt8], _ p: Int, _ address: [UInt8], _ a: Int) -> Bool {
        let slash = UInt8(ascii: "/")
        if p == pattern.count {
            return a == address.count
        }
        let element = pattern[p]
        if element == slash && p + 1 < pattern.count && pattern[p + 1] == slash {
            guard a == address.count || address[a] == slash else {
                return false
            }
            if p + 2 == pattern.count {
                return true
            }
            // None more level: the second `/` separates as usual; or swallow one more level.
            if reference(pattern, p + 1, address, a) {
                return true
            }
            guard a < address.count else {
                return false
            }
            var next = a + 1
            while next < address.count && address[next] != slash {
                next += 1
            }
            return next < address.count && reference(pattern, p, address, next)
        }
        switch element {
        case UInt8(ascii: "*"):
            var end = a
            while true {
                if reference(pattern, p + 1, address, end) {
                    return true
                }
                guard end < address.count && address[end] != slash else {
                    return false
                }
                end += 1
            }
        case UInt8(ascii: "?"):
            return a < address.count && address[a] != slash && reference(pattern, p + 1, address, a + 1)
        case UInt8(ascii: "["):
            var close = p + 1
            if pattern[close] == UInt8(ascii: "!") {
                close += 1
            }
            close += 1  // the first member may be `]`
            while pattern[close] != UInt8(ascii: "]") {
                close += 1
            }
            guard a < address.count && address[a] != slash else {
                return false
            }
            var body = Array(pattern[(p + 1)..<close])
            let negated = body.first == UInt8(ascii: "!")
            if negated {
                body.removeFirst()
            }
            var members: Set<UInt8> = []
            var index = 0
            while index < body.count {
                if index + 2 < body.count && body[index + 1] == UInt8(ascii: "-") {
                    members.formUnion(body[index]...body[index + 2])
                    index += 3
                } else {
                    members.insert(body[index])
                    index += 1
                }
            }
            return members.contains(address[a]) != negated && reference(pattern, close + 1, address, a + 1)
        case UInt8(ascii: "{"):
            let close = pattern[p...].firstIndex(of: UInt8(ascii: "}"))!
            let alternatives = pattern[(p + 1)..<close].split(
                separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            return alternatives.contains { alternative in
                address[a...].starts(with: alternative)
                    && reference(pattern, close + 1, address, a + alternative.count)
            }
        default:
            return a < address.count && address[a] == element && reference(pattern, p + 1, address, a + 1)
        }
    }

    static func part(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<12, using: &random) {
            case 0...4: text += ["a", "b"].randomElement(using: &random)!
            case 5: text += "?"
            case 6, 7: text += "*"
            case 8: text += ["[a]", "[!a]", "[a-b]", "[]a]", "[-b]", "[b-]", "[!-]"].randomElement(using: &random)!
            default:
                text += ["{a,b}", "{,a}", "{ab,a}", "{}", "{b,,ab}", "{a}"].randomElement(using: &random)!
            }
        }
        return text
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func agreesWithNaiveBacktracking(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var matched = 0
        for _ in 0..<4_000 {
            var pattern = Bool.random(using: &random) ? "/" : "//"
            pattern += Self.part(&random)
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                pattern += (Int.random(in: 0..<3, using: &random) == 0 ? "//" : "/") + Self.part(&random)
            }
            if Int.random(in: 0..<6, using: &random) == 0 {
                pattern += "//"
            }
            let address = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                "/"
                    + String(
                        (0..<Int.random(in: 1...3, using: &random)).map { _ in "ab".randomElement(using: &random)! })
            }.joined()
            let expected = Self.reference(Array(pattern.utf8), 0, Array(address.utf8), 0)
            #expect(try OSCAddressPattern(pattern).matches(address) == expected, "\(pattern) against \(address)")
            matched += expected ? 1 : 0
        }
        #expect(matched > 200)
        #expect(matched < 3_600)
    }
}
