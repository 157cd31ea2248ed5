/// The header fields of a request or a response, in the order they came, with case-insensitive lookup.
///
/// Field names are compared ASCII case-insensitively (RFC 9110 section 5.1); values keep their bytes.
/// A value is held as ISO-8859-1 text, one Unicode scalar per byte (U+0000 to U+00FF), because
/// RFC 9110 section 5.5 lets `obs-text` bytes through without giving them an encoding: reading
/// them as Latin-1 loses nothing, so a request written again has the same bytes.
public struct HTTPHeaders: Sendable, Hashable {
    /// One `name: value` line, without the surrounding whitespace of the value.
    public struct Field: Sendable, Hashable {
        /// The name as sent (`Sec-WebSocket-Key`), case preserved.
        public var name: String
        /// The value, leading and trailing spaces and tabs removed.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order, duplicates included.
    public private(set) var fields: [Field]

    /// Creates headers from `(name, value)` pairs, in that order.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Appends a field after the others (a second field of the same name does not replace the first).
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The value of the first field named `name` (any case), or `nil` when there is none.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// The values of every field named `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a comma-separated list in the fields named `name` holds `token`, ASCII case-insensitively.
    ///
    /// `Connection: keep-alive, Upgrade` holds `upgrade`; the list may be split over several fields
    /// (RFC 9110 section 5.3).
    public func contains(token: String, in name: String) -> Bool {
        values(for: name).contains { value in
            value.split(separator: ",").contains { element in
                Self.namesMatch(Self.trimmingWhitespace(element), token)
            }
        }
    }

    /// Whether two names are equal ignoring ASCII case.
    static func namesMatch<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowercased($0) == lowercased($1) }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    private static func trimmingWhitespace(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }

    /// The text of ISO-8859-1 bytes, one scalar per byte.
    static func latin1String<C: Collection<UInt8>>(_ bytes: C) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return text
    }

    /// The bytes of `text` as ISO-8859-1; a scalar above U+00FF (never read from the wire) goes as UTF-8.
    static func latin1Bytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value <= 0xFF {
                bytes.append(UInt8(scalar.value))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }
}
