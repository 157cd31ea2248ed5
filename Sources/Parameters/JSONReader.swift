/// A small strict JSON parser (RFC 8259) with a nesting limit, so that hostile files give errors.
struct JSONReader {
    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    private let bytes: [UInt8]
    private var position = 0
    private let maximumDepth: Int

    init(_ bytes: [UInt8], maximumDepth: Int = 64) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    static func parse(_ bytes: [UInt8], maximumDepth: Int = 64) throws(Failure) -> JSONValue {
        var reader = JSONReader(bytes, maximumDepth: maximumDepth)
        // A UTF-8 byte order mark is tolerated, as editors on some systems write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.position == bytes.count else { throw reader.fail("unexpected text after the value") }
        return value
    }

    private func fail(_ reason: String) -> Failure {
        Failure(offset: position, reason: reason)
    }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipSpace()
        guard position < bytes.count else { throw fail("unexpected end of text") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected
        else { throw fail("unexpected character") }
        position += expected.count
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maximumDepth else { throw fail("nested deeper than \(maximumDepth)") }
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let keyStart = position
            let key = try string()
            if members.contains(where: { $0.key == key }) {
                throw Failure(offset: keyStart, reason: "duplicate key '\(key)'")
            }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            position += 1
            members.append((key, try value(depth: depth)))
            skipSpace()
            guard position < bytes.count else { throw fail("unexpected end of text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maximumDepth else { throw fail("nested deeper than \(maximumDepth)") }
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth))
            skipSpace()
            guard position < bytes.count else { throw fail("unexpected end of text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(Failure) -> String {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - from
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw fail("unexpected character") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw fail("leading zero in a number") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw fail("expected digits after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw fail("expected digits in the exponent") }
        }
        guard position - start <= 64 else { throw fail("number too long") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func string() throws(Failure) -> String {
        position += 1
        var text = ""
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                try appendRun(from: runStart, to: &text)
                position += 1
                return text
            }
            if byte < 0x20 { throw fail("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                try appendRun(from: runStart, to: &text)
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): text += "\""
                case UInt8(ascii: "\\"): text += "\\"
                case UInt8(ascii: "/"): text += "/"
                case UInt8(ascii: "b"): text += "\u{08}"
                case UInt8(ascii: "f"): text += "\u{0C}"
                case UInt8(ascii: "n"): text += "\n"
                case UInt8(ascii: "r"): text += "\r"
                case UInt8(ascii: "t"): text += "\t"
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw fail("unpaired surrogate") }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                    text.unicodeScalars.append(scalar)
                default: throw fail("invalid escape")
                }
                runStart = position
                continue
            }
            position += 1
        }
        throw fail("unterminated string")
    }

    private func appendRun(from start: Int, to text: inout String) throws(Failure) {
        guard start < position else { return }
        guard let run = String(validating: bytes[start..<position], as: UTF8.self) else {
            throw Failure(offset: start, reason: "invalid UTF-8 in a string")
        }
        text += run
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw fail("truncated \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            code = code << 4 | digit
            position += 1
        }
        return code
    }
}
