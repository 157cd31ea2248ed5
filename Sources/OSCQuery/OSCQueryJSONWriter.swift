/// Writes compact JSON text (RFC 8259) into one growing byte buffer.
///
/// The namespace is written with these calls straight into the response's bytes, so a `GET /`
/// of a large tree makes no intermediate strings. The writer does not check structure: the
/// caller opens and closes what it writes, and puts the commas where ``comma()`` says.
/// Strings are escaped as section 7 requires (`"`, `\`, and every control character below
/// U+0020, the common ones as `\n`, `\r`, `\t`, `\b`, `\f`, the others as `\u00XX`); other
/// characters, non-ASCII included, go as their UTF-8 bytes.
public struct OSCQueryJSONWriter: Sendable {
    /// The text written so far, UTF-8.
    public var bytes: [UInt8]

    /// Creates a writer with an empty buffer of `capacity` bytes reserved.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Writes a whole value.
    /// - Complexity: O(n) in the size of the text.
    public mutating func write(_ value: OSCQueryJSON) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let flag): writeRaw(flag ? "true" : "false")
        case .int(let number): write(int: number)
        case .float(let number): write(float: number)
        case .double(let number): write(double: number)
        case .string(let text): write(string: text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { comma() }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { comma() }
                write(key: member.key)
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `"key":`.
    public mutating func write(key: String) {
        write(string: key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes `,`.
    public mutating func comma() {
        bytes.append(UInt8(ascii: ","))
    }

    /// Writes ASCII text as it is (punctuation, literals); the caller makes sure it is valid JSON.
    public mutating func writeRaw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes an integer in decimal.
    public mutating func write(int number: Int) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// Writes the shortest decimal that reads back as exactly `number` (Swift's own `description`,
    /// which is shortest round-trip: `0.5`, `1.0`, `1e-07`, all valid JSON); NaN and the
    /// infinities, which JSON cannot hold, as `null`.
    public mutating func write(float number: Float) {
        guard number.isFinite else { return writeRaw("null") }
        bytes.append(contentsOf: number.description.utf8)
    }

    /// Writes the shortest decimal that reads back as exactly `number`; NaN and the infinities as `null`.
    public mutating func write(double number: Double) {
        guard number.isFinite else { return writeRaw("null") }
        bytes.append(contentsOf: number.description.utf8)
    }

    /// Writes `text` as a JSON string, quotes included.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public mutating func write(string text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
