import CLibLO
import OSCCore
import Testing

/// Differential tests against liblo 0.31's own matcher, `lo_pattern_match(str, pattern)`, on
/// generated cases where liblo follows the specification.
///
/// Left out, because liblo departs from the specification there (each checked by hand):
/// - `*`, `?` and `[!…]` crossing `/`: liblo's wildcards match `/` (`/a/*` matches `/a/b/c`).
///   So liblo is asked part by part (each pattern part against the address part in the same
///   place), and whole addresses only go to liblo when every wildcard is a `[…]`, a `{…}` or a
///   `?`-free, `*`-free part.
/// - `//`, which liblo does not implement.
/// - An empty brace list `{}` and empty alternatives, which liblo mishandles (`{}` matches
///   nothing, not even the empty string).
/// - A `-` last in brackets (`[a-]`), which liblo reads as "from `a` upwards".
/// - Downward ranges (`[z-a]`), which liblo accepts and KnobLink refuses.
@Suite struct OSCAddressPatternLibLOTests {
    static let alphabet = Array("abc")

    /// A pattern part (no `/`) built from the constructs liblo gets right, and an address part
    /// that matches it (when the alphabet allows one), so that both outcomes are common.
    static func patternPart(_ random: inout SeededGenerator) -> (pattern: String, sample: String?) {
        var part = ""
        var sample: String? = ""
        for _ in 0..<Int.random(in: 1...5, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                let letter = alphabet.randomElement(using: &random)!
                part.append(letter)
                sample?.append(letter)
            case 4:
                part += "?"
                sample?.append(alphabet.randomElement(using: &random)!)
            case 5, 6:
                part += "*"
                sample? += String(
                    (0..<Int.random(in: 0...2, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            case 7:
                let (text, members) = bracket(&random)
                part += text
                if let member = members.randomElement(using: &random) {
                    sample?.append(member)
                } else {
                    sample = nil
                }
            default:
                // liblo gives up when the address part ends inside an alternative or right after
                // one that more pattern follows: equal lengths and a literal after `}` avoid both.
                let length = Int.random(in: 1...2, using: &random)
                let alternatives = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
                }
                let letter = alphabet.randomElement(using: &random)!
                part += "{" + alternatives.joined(separator: ",") + "}" + String(letter)
                sample? += alternatives.randomElement(using: &random)! + String(letter)
            }
        }
        return (part, sample)
    }

    /// A bracket expression over the alphabet, and the alphabet's letters that it matches.
    static func bracket(_ random: inout SeededGenerator) -> (text: String, members: [Character]) {
        let negated = Bool.random(using: &random)
        var text = negated ? "[!" : "["
        var set: Set<Character> = []
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let low = alphabet.randomElement(using: &random)!
            if Bool.random(using: &random) {
                let high = alphabet.filter { $0 >= low }.randomElement(using: &random)!
                text += "\(low)-\(high)"
                set.formUnion(alphabet.filter { $0 >= low && $0 <= high })
            } else {
                text.append(low)
                set.insert(low)
            }
        }
        return (text + "]", alphabet.filter { set.contains($0) != negated })
    }

    static func addressPart(_ random: inout SeededGenerator) -> String {
        String((0..<Int.random(in: 1...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    /// A string that a part made of letters, positive brackets and braces matches.
    static func sample(of part: String, _ random: inout SeededGenerator) -> String {
        var result = ""
        var characters = Array(part)[...]
        while let first = characters.popFirst() {
            switch first {
            case "[":
                let body = characters.prefix { $0 != "]" }
                characters = characters.dropFirst(body.count + 1)
                result.append(body.first!)
            case "{":
                let body = String(characters.prefix { $0 != "}" })
                characters = characters.dropFirst(body.count + 1)
                result += body.split(separator: ",").randomElement(using: &random)!
            default:
                result.append(first)
            }
        }
        return result
    }

    static func libloMatches(_ address: String, _ pattern: String) -> Bool {
        lo_pattern_match(address, pattern) != 0
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithLibLOPartByPart(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var matchedCount = 0
        for _ in 0..<3_000 {
            let levels = Int.random(in: 1...3, using: &random)
            let parts = (0..<levels).map { _ in Self.patternPart(&random) }
            let patternParts = parts.map(\.pattern)
            let addressParts = parts.map { Bool.random(using: &random) ? $0.sample ?? "a" : Self.addressPart(&random) }
            let pattern = try OSCAddressPattern("/" + patternParts.joined(separator: "/"))
            let address = "/" + addressParts.joined(separator: "/")
            let expected = zip(addressParts, patternParts).allSatisfy { Self.libloMatches($0, $1) }
            #expect(pattern.matches(address) == expected, "\(pattern) against \(address)")
            matchedCount += expected ? 1 : 0
        }
        // The generator must produce both outcomes, or the comparison proves little.
        #expect(matchedCount > 300)
        #expect(matchedCount < 2_700)
    }

    @Test func agreesWithLibLOOnWholeAddressesWithoutCrossingWildcards() throws {
        var random = SeededGenerator(seed: 42)
        var matchedCount = 0
        for _ in 0..<3_000 {
            let levels = Int.random(in: 1...4, using: &random)
            let patternParts = (0..<levels).map { _ in
                // Only constructs that cannot reach a `/`: literals, positive brackets, braces.
                var part = Self.patternPart(&random).pattern
                part.removeAll { $0 == "*" || $0 == "?" || $0 == "!" }
                return part.isEmpty ? "a" : part
            }
            // The samples were drawn before wildcards were removed: regenerate by matching
            // letter for letter, and sometimes change the number of levels.
            let sampled = patternParts.map { Self.sample(of: $0, &random) }
            var addressParts = sampled.map { Bool.random(using: &random) ? $0 : Self.addressPart(&random) }
            if Int.random(in: 0..<4, using: &random) == 0 {
                addressParts.append(Self.addressPart(&random))
            } else if addressParts.count > 1 && Int.random(in: 0..<4, using: &random) == 0 {
                addressParts.removeLast()
            }
            let patternText = "/" + patternParts.joined(separator: "/")
            let address = "/" + addressParts.joined(separator: "/")
            let expected = Self.libloMatches(address, patternText)
            #expect(
                try OSCAddressPattern(patternText).matches(address) == expected, "\(patternText) against \(address)")
            matchedCount += expected ? 1 : 0
        }
        #expect(matchedCount > 300)
    }

    @Test func libloCrossesSlashesWhereWeDoNot() throws {
        // The documented exclusion, pinned so that a liblo upgrade that fixes it shows up here.
        #expect(Self.libloMatches("/a/b/c", "/a/*"))
        #expect(try OSCAddressPattern("/a/*").matches("/a/b/c") == false)
    }
}
