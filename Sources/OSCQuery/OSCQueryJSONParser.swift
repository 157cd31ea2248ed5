/// A strict RFC 8259 JSON parser with a size and a depth limit, for the WebSocket's text commands.
///
/// Pure and bounded: it reads bytes and nothing else, refuses a text over ``maximumSize`` before
/// reading it, and nests at most ``maximumDepth`` arrays and objects, so a fuzzer or a hostile
/// client can make it do at most linear work. Strict: no comments, no trailing commas, no leading
/// zeros, no unescaped control characters, no lone surrogates, no invalid UTF-8, no duplicate
/// keys, nothing after the value but whitespace. Every error carries the byte offset.
public struct OSCQueryJSONParser: Sendable {
    /// The longest text read, in bytes.
    public var maximumSize: Int
    /// The most arrays and objects open at once.
    public var maximumDepth: Int

    /// Creates a parser; the defaults (64 KiB, 16 levels) are generous for OSCQuery commands.
    public init(maximumSize: Int = 65_536, maximumDepth: Int = 16) {
        self.maximumSize = maximumSize
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON text.
    /// - Throws: ``OSCQueryJSONError`` naming the first problem and its offset.
    /// - Complexity: O(n) in the length of the text.
    public func parse(_ text: some Collection<UInt8>) throws(OSCQueryJSONError) -> OSCQueryJSON {
        guard text.count <= maximumSize else { throw .tooLarge(size: text.count, limit: maximumSize) }
        var reader = Reader(bytes: Array(text), maximumDepth: maximumDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.position == reader.bytes.count else { throw .trailingData(offset: reader.position) }
        return value
    }

    /// Parses the UTF-8 of `text`.
    /// - Throws: ``OSCQueryJSONError``.
    public func parse(_ text: String) throws(OSCQueryJSONError) -> OSCQueryJSON {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: [UInt8]
    let maximumDepth: Int
    var position = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    func peek() throws(OSCQueryJSONError) -> UInt8 {
        guard position < bytes.count else { throw .unexpectedEnd(offset: position) }
        return bytes[position]
    }

    mutating func readValue(depth: Int) throws(OSCQueryJSONError) -> OSCQueryJSON {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try readLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw .unexpectedByte(byte, offset: position)
        }
    }

    mutating func readLiteral(_ word: StaticString, _ value: OSCQueryJSON) throws(OSCQueryJSONError) -> OSCQueryJSON {
        let expected = word.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard position < bytes.count else { throw .unexpectedEnd(offset: position) }
            guard bytes[position] == byte else { throw .unexpectedByte(bytes[position], offset: position) }
            position += 1
        }
        return value
    }

    mutating func readObject(depth: Int) throws(OSCQueryJSONError) -> OSCQueryJSON {
        guard depth <= maximumDepth else { throw .tooDeep(offset: position, limit: maximumDepth) }
        position += 1
        var members: [(key: String, value: OSCQueryJSON)] = []
        var keys: Set<String> = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyOffset = position
            let byte = try peek()
            guard byte == UInt8(ascii: "\"") else { throw .unexpectedByte(byte, offset: position) }
            let key = try readString()
            guard keys.insert(key).inserted else { throw .duplicateKey(key, offset: keyOffset) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            members.append((key, try readValue(depth: depth)))
            skipWhitespace()
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: position - 1) }
        }
    }

    mutating func readArray(depth: Int) throws(OSCQueryJSONError) -> OSCQueryJSON {
        guard depth <= maximumDepth else { throw .tooDeep(offset: position, limit: maximumDepth) }
        position += 1
        var elements: [OSCQueryJSON] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: position - 1) }
        }
    }

    mutating func expect(_ byte: UInt8) throws(OSCQueryJSONError) {
        let found = try peek()
        guard found == byte else { throw .unexpectedByte(found, offset: position) }
        position += 1
    }

    // MARK: Strings

    mutating func readString() throws(OSCQueryJSONError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard position < bytes.count else { throw .unexpectedEnd(offset: position) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(try readEscape())
            case 0x00..<0x20:
                throw .controlCharacterInString(offset: position)
            case 0x20..<0x80:
                scalars.append(Unicode.Scalar(byte))
                position += 1
            default:
                scalars.append(try readUTF8Scalar())
            }
        }
    }

    mutating func readEscape() throws(OSCQueryJSONError) -> Unicode.Scalar {
        let start = position
        position += 1
        guard position < bytes.count else { throw .unexpectedEnd(offset: position) }
        let letter = bytes[position]
        position += 1
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by `\u` and a low one (section 7, UTF-16 pairs).
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw .invalidEscape(offset: start) }
                position += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw .invalidEscape(offset: start) }
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw .invalidEscape(offset: start) }
                return scalar
            }
            guard let scalar = Unicode.Scalar(unit) else { throw .invalidEscape(offset: start) }
            return scalar
        default:
            throw .invalidEscape(offset: start)
        }
    }

    mutating func readHex4() throws(OSCQueryJSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw .unexpectedEnd(offset: position) }
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .invalidEscape(offset: position)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// One multi-byte UTF-8 sequence (RFC 3629 section 4: no overlong forms, no surrogates, at most U+10FFFF).
    mutating func readUTF8Scalar() throws(OSCQueryJSONError) -> Unicode.Scalar {
        let start = position
        let lead = bytes[position]
        let length: Int
        var value: UInt32
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF:
            (length, value) = (3, UInt32(lead & 0x0F))
            if lead == 0xE0 { low = 0xA0 }
            if lead == 0xED { high = 0x9F }
        case 0xF0...0xF4:
            (length, value) = (4, UInt32(lead & 0x07))
            if lead == 0xF0 { low = 0x90 }
            if lead == 0xF4 { high = 0x8F }
        default: throw .invalidUTF8(offset: start)
        }
        position += 1
        for index in 1..<length {
            guard position < bytes.count else { throw .unexpectedEnd(offset: position) }
            let byte = bytes[position]
            let (lower, upper) = index == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= lower && byte <= upper else { throw .invalidUTF8(offset: position) }
            value = value << 6 | UInt32(byte & 0x3F)
            position += 1
        }
        guard let scalar = Unicode.Scalar(value) else { throw .invalidUTF8(offset: start) }
        return scalar
    }

    // MARK: Numbers

    mutating func readNumber() throws(OSCQueryJSONError) -> OSCQueryJSON {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw .invalidNumber(offset: start) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw .invalidNumber(offset: start) }
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw .invalidNumber(offset: start) }
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw .invalidNumber(offset: start) }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        // The grammar was checked above, so Double's parser only rounds (huge exponents give ±infinity).
        guard let number = Double(text) else { throw .invalidNumber(offset: start) }
        return .double(number)
    }

    mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
