import OSCCore

/// Turns a type tag string and its values, written as `oscsend` takes them, into OSC arguments.
///
/// The types of `oscsend` (liblo 0.31) read their values the same way here: `i` and `h` decimal
/// integers in range, `f` and `d` as `strtod` reads them (`1e3`, `inf`, `nan`), `s` and `S` as
/// they are, `c` the first byte (none gives 0), `m` up to eight hexadecimal digits, `T F N I`
/// without a value. Beyond `oscsend`: `b` a blob in hexadecimal (`01ff`, `0x01ff`, or empty),
/// `t` a time tag (see ``TimeTagText``), `r` a colour as eight hexadecimal digits, `[` and `]`
/// around an array, without values. Unlike `oscsend`, which ignores values left over, a value
/// without a type is an error.
enum MessageValueParser {
    static let supportedTypes = "i h f d s S c m t b r T F N I [ ]"

    /// Parses `values` against `types`.
    /// - Throws: ``UsageError`` naming the first value that does not parse, a missing value, a
    ///   value left over, an unsupported type or unbalanced brackets.
    static func arguments(types: String, values: [String]) throws(UsageError) -> [OSCArgument] {
        var stack: [[OSCArgument]] = [[]]
        var remaining = values[...]
        var position = 0
        for type in types {
            switch type {
            case "[":
                stack.append([])
                continue
            case "]":
                guard stack.count > 1, let array = stack.popLast() else { throw .other("Unbalanced ']' in '\(types)'") }
                stack[stack.count - 1].append(.array(array))
                continue
            case "T", "F", "N", "I":
                stack[stack.count - 1].append(valueless(type))
                continue
            default:
                break
            }
            position += 1
            guard "ihfdsScmtbr".contains(type) else { throw .unsupportedType(type) }
            guard let text = remaining.popFirst() else { throw .missingMessageValue(type: type, position: position) }
            stack[stack.count - 1].append(try argument(type, text, position: position))
        }
        guard stack.count == 1 else { throw .other("Unbalanced '[' in '\(types)'") }
        if let extra = remaining.first { throw .unexpectedArgument(extra) }
        return stack[0]
    }

    private static func valueless(_ type: Character) -> OSCArgument {
        switch type {
        case "T": .true
        case "F": .false
        case "N": .nil
        default: .impulse
        }
    }

    private static func argument(_ type: Character, _ text: String, position: Int) throws(UsageError) -> OSCArgument {
        func invalid(_ expected: String) -> UsageError {
            .invalidMessageValue(text, type: type, position: position, expected: expected)
        }
        switch type {
        case "i":
            guard let value = Int32(text) else { throw invalid("a 32-bit decimal integer") }
            return .int32(value)
        case "h":
            guard let value = Int64(text) else { throw invalid("a 64-bit decimal integer") }
            return .int64(value)
        case "f":
            guard let value = Float(text) else { throw invalid("a number") }
            return .float32(value)
        case "d":
            guard let value = Double(text) else { throw invalid("a number") }
            return .double(value)
        case "s":
            return .string(text)
        case "S":
            return .symbol(text)
        case "c":
            return .character(text.utf8.first ?? 0)
        case "m":
            guard let value = word(text) else { throw invalid("up to 8 hexadecimal digits") }
            return .midi(OSCMIDI(rawValue: value))
        case "r":
            guard let value = word(text) else { throw invalid("up to 8 hexadecimal digits") }
            return .rgba(OSCRGBA(rawValue: value))
        case "t":
            guard let value = TimeTagText.parse(text) else { throw invalid(TimeTagText.expected) }
            return .timeTag(value)
        default:
            guard let bytes = hexBytes(text) else { throw invalid("an even number of hexadecimal digits") }
            return .blob(bytes)
        }
    }

    /// One to eight hexadecimal digits, with or without `0x`, as `sscanf("%08x")` reads them
    /// except that nothing may follow the digits.
    private static func word(_ text: String) -> UInt32? {
        let digits = withoutHexPrefix(text)
        guard (1...8).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(digits, radix: 16)
    }

    /// Pairs of hexadecimal digits, with or without `0x`; the empty string is the empty blob.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(withoutHexPrefix(text).utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func withoutHexPrefix(_ text: String) -> Substring {
        text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : text[...]
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
