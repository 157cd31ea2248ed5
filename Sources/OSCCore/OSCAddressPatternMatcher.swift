/// Matching of validated OSC address patterns against addresses, byte by byte.
///
/// Every function here assumes that the pattern passed ``OSCAddressPattern/validate(pattern:)``:
/// brackets and braces are closed, braces hold literal bytes only, and no part is empty except
/// where `//` stands. Addresses are not validated; they are compared as bytes.
///
/// Nothing here allocates on the heap. `steps` counts the units of work (one per address part
/// tried, one per byte examined by a part matcher, one per live state in the brace automaton) so
/// that tests can bound the cost of hostile patterns without timers.
///
/// Cost: a pattern without `{…}` is matched part by part with the greedy algorithm that retries
/// only from the last `*` (and, across parts, only from the last `//`); that is correct because
/// every other element consumes exactly one byte (or one part), and it needs at most
/// O(pattern × address) steps, linear for the common shapes (`*a*a*b` included). A part that
/// contains braces runs as a set-of-states automaton over the part's pattern bytes, also
/// O(pattern × address), never exponential.
enum OSCAddressPatternMatcher {
    static let slash = UInt8(ascii: "/")
    static let star = UInt8(ascii: "*")
    static let question = UInt8(ascii: "?")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let comma = UInt8(ascii: ",")
    static let bang = UInt8(ascii: "!")
    static let dash = UInt8(ascii: "-")

    /// Whether `address[addressStart...]` matches `pattern[patternStart...]`.
    ///
    /// Both positions are at a `/` that starts a part, or at the end of their buffer.
    static func matches(
        pattern: UnsafeRawBufferPointer, from patternStart: Int,
        address: UnsafeRawBufferPointer, from addressStart: Int,
        steps: inout Int
    ) -> Bool {
        let patternEnd = pattern.count
        let addressEnd = address.count
        var p = patternStart
        var a = addressStart
        // Where to resume after the last `//`: the pattern part after it, and the address part
        // that the `//` has not yet swallowed.
        var resumePattern = -1
        var resumeAddress = 0
        while true {
            steps &+= 1
            if p + 1 < patternEnd && pattern[p + 1] == slash {
                if p + 2 == patternEnd {
                    // A trailing `//` takes whatever levels are left, none included.
                    return true
                }
                p += 1
                resumePattern = p
                resumeAddress = a
                continue
            }
            if a == addressEnd {
                return p == patternEnd
            }
            if p < patternEnd {
                let partEnd = nextSlash(pattern, from: p + 1)
                let addressPartEnd = nextSlash(address, from: a + 1)
                let matched = matchesPart(
                    pattern: pattern, p + 1, partEnd,
                    text: address, a + 1, addressPartEnd,
                    hasBraces: containsBrace(pattern, p + 1, partEnd), steps: &steps)
                if matched {
                    p = partEnd
                    a = addressPartEnd
                    continue
                }
            }
            guard resumePattern >= 0 else {
                return false
            }
            resumeAddress = nextSlash(address, from: resumeAddress + 1)
            if resumeAddress == addressEnd {
                // The `//` would have to swallow everything, but pattern parts remain after it.
                return false
            }
            a = resumeAddress
            p = resumePattern
        }
    }

    /// The index of the first `/` at or after `start`, or the buffer's count.
    @inline(__always)
    static func nextSlash(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        let end = bytes.count
        while index < end && bytes[index] != slash {
            index &+= 1
        }
        return index
    }

    @inline(__always)
    static func containsBrace(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            if bytes[index] == openBrace {
                return true
            }
            index &+= 1
        }
        return false
    }

    /// Whether the part `text[textStart..<textEnd]` matches the pattern part
    /// `pattern[patternStart..<patternEnd]` (neither contains `/`).
    @inline(__always)
    static func matchesPart(
        pattern: UnsafeRawBufferPointer, _ patternStart: Int, _ patternEnd: Int,
        text: UnsafeRawBufferPointer, _ textStart: Int, _ textEnd: Int,
        hasBraces: Bool, steps: inout Int
    ) -> Bool {
        if hasBraces {
            return matchesPartWithBraces(
                pattern: pattern, patternStart, patternEnd, text: text, textStart, textEnd, steps: &steps)
        }
        return matchesPartGreedy(
            pattern: pattern, patternStart, patternEnd, text: text, textStart, textEnd, steps: &steps)
    }

    /// Matches a part without braces: every element but `*` consumes exactly one byte, so after
    /// a failure only the last `*` needs to take one more byte.
    static func matchesPartGreedy(
        pattern: UnsafeRawBufferPointer, _ patternStart: Int, _ patternEnd: Int,
        text: UnsafeRawBufferPointer, _ textStart: Int, _ textEnd: Int,
        steps: inout Int
    ) -> Bool {
        var p = patternStart
        var t = textStart
        var starPattern = -1
        var starText = 0
        while t < textEnd {
            steps &+= 1
            if p < patternEnd {
                let element = pattern[p]
                let byte = text[t]
                if element == star {
                    p &+= 1
                    starPattern = p
                    starText = t
                    continue
                }
                if element == question {
                    p &+= 1
                    t &+= 1
                    continue
                }
                if element == openBracket {
                    let (matched, next) = matchesClass(pattern, at: p, byte)
                    if matched {
                        p = next
                        t &+= 1
                        continue
                    }
                } else if element == byte {
                    p &+= 1
                    t &+= 1
                    continue
                }
            }
            guard starPattern >= 0 else {
                return false
            }
            starText &+= 1
            t = starText
            p = starPattern
        }
        while p < patternEnd && pattern[p] == star {
            p &+= 1
        }
        return p == patternEnd
    }

    /// Whether `byte` is in the bracket expression opening at `open`, and the index after its `]`.
    ///
    /// A `]` right after `[` or `[!` is literal, and so is a `-` first or last.
    @inline(__always)
    static func matchesClass(
        _ pattern: UnsafeRawBufferPointer, at open: Int, _ byte: UInt8
    ) -> (matched: Bool, next: Int) {
        var index = open &+ 1
        var negated = false
        if pattern[index] == bang {
            negated = true
            index &+= 1
        }
        var matched = false
        var first = true
        while true {
            let lower = pattern[index]
            if lower == closeBracket && !first {
                break
            }
            first = false
            if pattern[index &+ 1] == dash && pattern[index &+ 2] != closeBracket {
                let upper = pattern[index &+ 2]
                if byte >= lower && byte <= upper {
                    matched = true
                }
                index &+= 3
            } else {
                if byte == lower {
                    matched = true
                }
                index &+= 1
            }
        }
        return (matched != negated, index &+ 1)
    }

    /// The index of the `]` that closes the bracket expression opening at `open`.
    static func classEnd(_ pattern: UnsafeRawBufferPointer, at open: Int) -> Int {
        matchesClass(pattern, at: open, 0).next &- 1
    }

    /// Matches a part that contains braces by running the set of pattern positions that the text
    /// read so far can have reached (a Thompson simulation; every epsilon move goes forwards, so
    /// one ascending sweep closes a set).
    static func matchesPartWithBraces(
        pattern: UnsafeRawBufferPointer, _ patternStart: Int, _ patternEnd: Int,
        text: UnsafeRawBufferPointer, _ textStart: Int, _ textEnd: Int,
        steps: inout Int
    ) -> Bool {
        // State k is "about to match pattern[patternStart + k]"; the last state accepts.
        let stateCount = patternEnd - patternStart + 1
        let words = (stateCount + 63) >> 6
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * words) { storage in
            let base = storage.baseAddress.unsafelyUnwrapped
            var current = base
            var next = base + words
            current.update(repeating: 0, count: words)
            current[0] = 1
            close(current, pattern: pattern, patternStart, stateCount, steps: &steps)
            var t = textStart
            while t < textEnd {
                let byte = text[t]
                next.update(repeating: 0, count: words)
                var alive = false
                for word in 0..<words {
                    var bits = current[word]
                    while bits != 0 {
                        let state = word << 6 | bits.trailingZeroBitCount
                        bits &= bits &- 1
                        steps &+= 1
                        let position = patternStart + state
                        if position == patternEnd {
                            continue
                        }
                        let element = pattern[position]
                        var target = -1
                        switch element {
                        case star:
                            target = state
                        case question:
                            target = state + 1
                        case openBracket:
                            let (matched, after) = matchesClass(pattern, at: position, byte)
                            if matched {
                                target = after - patternStart
                            }
                        case openBrace, comma, closeBrace:
                            // Only epsilon moves leave these states; the closure took them.
                            break
                        default:
                            if element == byte {
                                target = state + 1
                            }
                        }
                        if target >= 0 {
                            next[target >> 6] |= 1 << UInt64(target & 63)
                            alive = true
                        }
                    }
                }
                guard alive else {
                    return false
                }
                close(next, pattern: pattern, patternStart, stateCount, steps: &steps)
                swap(&current, &next)
                t &+= 1
            }
            let accept = stateCount - 1
            return current[accept >> 6] & (1 << UInt64(accept & 63)) != 0
        }
    }

    /// Adds to `set` every state reachable from it without reading a byte.
    private static func close(
        _ set: UnsafeMutablePointer<UInt64>, pattern: UnsafeRawBufferPointer, _ patternStart: Int,
        _ stateCount: Int, steps: inout Int
    ) {
        // The `}` of the brace being swept, found once per brace rather than once per `,`.
        var knownClose = -1
        var state = 0
        while state < stateCount - 1 {
            let word = state >> 6
            let bits = set[word] >> UInt64(state & 63)
            if bits == 0 {
                state = (word + 1) << 6
                continue
            }
            state += bits.trailingZeroBitCount
            if state >= stateCount - 1 {
                break
            }
            steps &+= 1
            let position = patternStart + state
            switch pattern[position] {
            case star:
                insert(state + 1, into: set)
            case openBrace:
                // Each alternative starts after the `{` or after a `,`.
                insert(state + 1, into: set)
                var index = position + 1
                while pattern[index] != closeBrace {
                    if pattern[index] == comma {
                        insert(index + 1 - patternStart, into: set)
                    }
                    index += 1
                }
                knownClose = index
            case comma, closeBrace:
                // The end of an alternative: continue after the brace.
                if knownClose < position {
                    var index = position
                    while pattern[index] != closeBrace {
                        index += 1
                    }
                    knownClose = index
                }
                insert(knownClose + 1 - patternStart, into: set)
            case openBracket:
                // Skip the bracket's bytes: they are not states of their own.
                state = classEnd(pattern, at: position) - patternStart
            default:
                break
            }
            state += 1
        }
    }

    @inline(__always)
    private static func insert(_ state: Int, into set: UnsafeMutablePointer<UInt64>) {
        set[state >> 6] |= 1 << UInt64(state & 63)
    }
}
