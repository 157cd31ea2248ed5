extension OSCAddressPattern {
    /// Checks that `bytes` is a valid OSC address: a method's name, without pattern characters.
    ///
    /// An address is `/` followed by one or more non-empty parts separated by `/`. Its bytes are
    /// printable ASCII other than space, `#`, and the pattern characters `* ? [ ] { } ,`.
    ///
    /// - Throws: ``OSCAddressError`` naming the first problem and its offset.
    /// - Complexity: O(n) in the length of `bytes`; no allocation.
    public static func validate(address bytes: UnsafeRawBufferPointer) throws(OSCAddressError) {
        guard let first = bytes.first else {
            throw .empty
        }
        guard first == OSCAddressPatternMatcher.slash else {
            throw .missingLeadingSlash(found: first)
        }
        let count = bytes.count
        var index = 0
        while index < count {
            let byte = bytes[index]
            switch byte {
            case OSCAddressPatternMatcher.slash:
                if index + 1 == count || bytes[index + 1] == OSCAddressPatternMatcher.slash {
                    throw .emptySegment(offset: index + 1)
                }
            case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ","):
                throw .patternCharacterInAddress(byte, offset: index)
            default:
                if !isAllowed(byte) {
                    throw .invalidCharacter(byte, offset: index)
                }
            }
            index += 1
        }
    }

    /// Checks that `address` is a valid OSC address; see the overload that takes bytes.
    public static func validate(address: String) throws(OSCAddressError) {
        var address = address
        // `withUTF8` rethrows untyped errors, so the typed error travels out as a value.
        let result = address.withUTF8 { utf8 in
            Result { () throws(OSCAddressError) in try validate(address: UnsafeRawBufferPointer(utf8)) }
        }
        try result.get()
    }

    /// Checks that `bytes` is a valid OSC address pattern.
    ///
    /// A pattern is an address that may also use `?`, `*`, `[abc]`, `[a-z]`, `[!a-z]`,
    /// `{foo,bar}` within a part, and OSC 1.1's `//` (any number of levels, none included) at the
    /// start, in the middle or at the end. In brackets, a `]` right after `[` or `[!` and a `-`
    /// first or last are literal; ranges must go upwards. Braces hold comma-separated literal
    /// alternatives, possibly empty, and do not nest.
    ///
    /// - Returns: whether the pattern uses any wildcard (if not, it is a plain address).
    /// - Throws: ``OSCAddressError`` naming the first problem and its offset.
    /// - Complexity: O(n) in the length of `bytes`; no allocation.
    @discardableResult
    public static func validate(pattern bytes: UnsafeRawBufferPointer) throws(OSCAddressError) -> Bool {
        guard let first = bytes.first else {
            throw .empty
        }
        guard first == OSCAddressPatternMatcher.slash else {
            throw .missingLeadingSlash(found: first)
        }
        let count = bytes.count
        var hasWildcard = false
        var index = 0
        while index < count {
            let byte = bytes[index]
            switch byte {
            case OSCAddressPatternMatcher.slash:
                if index + 1 < count && bytes[index + 1] == OSCAddressPatternMatcher.slash {
                    // `//`: a third slash would leave an empty part; the pattern may end here.
                    hasWildcard = true
                    index += 1
                    if index + 1 < count && bytes[index + 1] == OSCAddressPatternMatcher.slash {
                        throw .emptySegment(offset: index + 1)
                    }
                } else if index + 1 == count {
                    throw .emptySegment(offset: index + 1)
                }
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                hasWildcard = true
            case UInt8(ascii: "["):
                hasWildcard = true
                index = try bracketEnd(bytes, open: index)
            case UInt8(ascii: "{"):
                hasWildcard = true
                index = try braceEnd(bytes, open: index)
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
                throw .unexpectedCharacter(byte, offset: index)
            default:
                if !isAllowed(byte) {
                    throw .invalidCharacter(byte, offset: index)
                }
            }
            index += 1
        }
        return hasWildcard
    }

    /// Checks that `pattern` is a valid OSC address pattern; see the overload that takes bytes.
    @discardableResult
    public static func validate(pattern: String) throws(OSCAddressError) -> Bool {
        var pattern = pattern
        let result = pattern.withUTF8 { utf8 in
            Result { () throws(OSCAddressError) -> Bool in try validate(pattern: UnsafeRawBufferPointer(utf8)) }
        }
        return try result.get()
    }

    /// Printable ASCII other than space and `#`.
    @inline(__always)
    static func isAllowed(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "#")
    }

    /// The index of the `]` closing the bracket expression that opens at `open`.
    private static func bracketEnd(_ bytes: UnsafeRawBufferPointer, open: Int) throws(OSCAddressError) -> Int {
        let count = bytes.count
        var index = open + 1
        if index < count && bytes[index] == UInt8(ascii: "!") {
            index += 1
        }
        var first = true
        while index < count {
            let lower = bytes[index]
            if lower == UInt8(ascii: "]") && !first {
                return index
            }
            first = false
            try checkInBrackets(lower, at: index)
            if index + 2 < count && bytes[index + 1] == UInt8(ascii: "-") && bytes[index + 2] != UInt8(ascii: "]") {
                let upper = bytes[index + 2]
                try checkInBrackets(upper, at: index + 2)
                if upper < lower {
                    throw .invalidRange(lower: lower, upper: upper, offset: index)
                }
                index += 3
            } else {
                index += 1
            }
        }
        throw .unterminatedBracket(offset: open)
    }

    private static func checkInBrackets(_ byte: UInt8, at index: Int) throws(OSCAddressError) {
        if byte == OSCAddressPatternMatcher.slash {
            throw .slashInBrackets(offset: index)
        }
        if !isAllowed(byte) {
            throw .invalidCharacter(byte, offset: index)
        }
    }

    /// The index of the `}` closing the brace list that opens at `open`.
    private static func braceEnd(_ bytes: UnsafeRawBufferPointer, open: Int) throws(OSCAddressError) -> Int {
        var index = open + 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "}"):
                return index
            case UInt8(ascii: "{"):
                throw .nestedBrace(offset: index)
            case UInt8(ascii: ","):
                break
            case UInt8(ascii: "/"), UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"):
                throw .characterNotAllowedInBraces(byte, offset: index)
            default:
                if !isAllowed(byte) {
                    throw .invalidCharacter(byte, offset: index)
                }
            }
            index += 1
        }
        throw .unterminatedBrace(offset: open)
    }
}
