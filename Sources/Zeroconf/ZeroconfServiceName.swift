/// The rules of a DNS-SD service instance name (RFC 6763 §4.1.1).
enum ZeroconfServiceName {
    /// The most bytes of UTF-8 a DNS label, and so a service name, may have.
    static let maximumLength = 63

    /// The name to publish for `name`: control characters (RFC 6763 forbids them) turned into
    /// spaces, cut to at most 63 bytes at a character boundary, surrounding white space removed,
    /// and `fallback` when nothing is left.
    ///
    /// Cutting at a `Character` keeps the UTF-8 valid and never separates a combining mark or
    /// an emoji's parts from their base.
    static func sanitized(_ name: String, fallback: String = "KnobLink") -> String {
        var result = ""
        var length = 0
        let printable = String(name.map { isControl($0) ? " " : $0 })
        for character in printable.trimmed {
            let size = character.utf8.count
            guard length + size <= maximumLength else { break }
            result.append(character)
            length += size
        }
        let trimmed = result.trimmed
        return trimmed.isEmpty ? fallback : trimmed
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension String {
    /// The string without white space at either end.
    fileprivate var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
