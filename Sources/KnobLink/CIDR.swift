import OSCTransport

/// A block of IP addresses: `192.168.0.0/16`, `fe80::/10`, or a single address (`127.0.0.1`).
///
/// Both families live in one 128-bit space: an IPv4 block is kept as the IPv4-mapped IPv6 block
/// `::ffff:a.b.c.d/(96 + n)`, so an IPv4 peer that reaches a dual-stack socket as
/// `::ffff:10.1.2.3` matches `10.0.0.0/8` exactly as `10.1.2.3` does.
public struct CIDR: Sendable, Hashable, CustomStringConvertible {
    /// The family the block was written in.
    public let family: OSCSocketAddress.Family
    /// The prefix length in the written family: 0…32 for IPv4, 0…128 for IPv6.
    public let prefixLength: Int
    private let high: UInt64
    private let low: UInt64
    private let maskHigh: UInt64
    private let maskLow: UInt64

    /// Creates a block from address bytes (4 for IPv4, 16 for IPv6) and a prefix length; host
    /// bits beyond the prefix are cleared.
    /// - Returns: `nil` if the byte count is not 4 or 16 or the prefix length is out of range.
    public init?(addressBytes: [UInt8], prefixLength: Int) {
        guard addressBytes.count == 4 || addressBytes.count == 16 else { return nil }
        let isIPv4 = addressBytes.count == 4
        guard prefixLength >= 0, prefixLength <= (isIPv4 ? 32 : 128) else { return nil }
        family = isIPv4 ? .ipv4 : .ipv6
        self.prefixLength = prefixLength
        let (high, low) = CIDR.wide(addressBytes)
        let wideLength = isIPv4 ? 96 + prefixLength : prefixLength
        maskHigh = CIDR.mask(bits: min(wideLength, 64))
        maskLow = CIDR.mask(bits: max(wideLength - 64, 0))
        self.high = high & maskHigh
        self.low = low & maskLow
    }

    /// Parses `a.b.c.d/n`, `x:x::x/n`, or an address alone (one host: /32 or /128).
    ///
    /// An IPv4 block may leave out trailing zero octets when it has a prefix (`10/8`,
    /// `172.16/12`), as BSD's routing tools allow. Host bits set beyond the prefix are cleared
    /// (`10.1.2.3/8` is `10.0.0.0/8`). A zone (`%eth0`) is refused: an allow-list names addresses.
    /// - Throws: ``CIDRError`` naming the part that is wrong.
    public init(parsing text: String) throws(CIDRError) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        let addressText: Substring
        var prefix: Int?
        if let slash = trimmed.firstIndex(of: "/") {
            addressText = trimmed[..<slash]
            let prefixText = trimmed[trimmed.index(after: slash)...]
            let maximum = addressText.contains(":") ? 128 : 32
            guard !prefixText.isEmpty, prefixText.count <= 3, prefixText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(prefixText), value <= maximum
            else { throw .invalidPrefixLength(trimmed, maximum: maximum) }
            prefix = value
        } else {
            addressText = Substring(trimmed)
        }
        let bytes: [UInt8]
        if addressText.contains(":") {
            bytes = try CIDR.parseIPv6(addressText, whole: trimmed)
        } else {
            bytes = try CIDR.parseIPv4(addressText, whole: trimmed, allowShort: prefix != nil)
        }
        self.init(addressBytes: bytes, prefixLength: prefix ?? bytes.count * 8)!
    }

    /// Whether the socket address lies in the block (its port does not matter).
    public func contains(_ address: OSCSocketAddress) -> Bool {
        contains(addressBytes: address.addressBytes)
    }

    /// Whether the address (4 or 16 bytes) lies in the block; `false` for any other byte count.
    public func contains(addressBytes: [UInt8]) -> Bool {
        guard addressBytes.count == 4 || addressBytes.count == 16 else { return false }
        let (high, low) = CIDR.wide(addressBytes)
        return high & maskHigh == self.high && low & maskLow == self.low
    }

    /// `10.0.0.0/8`, `fe80::/10`, in the family it was written in.
    public var description: String {
        switch family {
        case .ipv4:
            let value = UInt32(truncatingIfNeeded: low)
            let octets = [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }
            return octets.joined(separator: ".") + "/\(prefixLength)"
        case .ipv6:
            return CIDR.formatIPv6(high: high, low: low) + "/\(prefixLength)"
        }
    }

    // MARK: - Helpers

    private static func mask(bits: Int) -> UInt64 {
        bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> UInt64(bits))
    }

    /// The address as 128 bits, an IPv4 address mapped to `::ffff:a.b.c.d`.
    private static func wide(_ bytes: [UInt8]) -> (UInt64, UInt64) {
        if bytes.count == 4 {
            let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return (0, 0xFFFF_0000_0000 | value)
        }
        let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (high, low)
    }

    private static func parseIPv4(_ text: Substring, whole: String, allowShort: Bool) throws(CIDRError) -> [UInt8] {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 || (allowShort && (1...4).contains(parts.count)) else {
            throw .invalidAddress(whole, reason: "an IPv4 address has four octets separated by '.'")
        }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw .invalidAddress(whole, reason: "octet '\(part)' is not a number from 0 to 255")
            }
            guard let value = UInt8(part) else {
                throw .invalidAddress(whole, reason: "octet '\(part)' is larger than 255")
            }
            bytes.append(value)
        }
        return bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
    }

    private static func parseIPv6(_ text: Substring, whole: String) throws(CIDRError) -> [UInt8] {
        func fail(_ reason: String) -> CIDRError { .invalidAddress(whole, reason: reason) }
        var text = text
        if text.hasPrefix("[") && text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        guard !text.contains("%") else { throw fail("a zone ('%…') is not allowed in an allow-list") }
        let halves = CIDR.splitAtDoubleColons(String(text))
        guard halves.count <= 2 else { throw fail("'::' may appear only once") }
        func groups(_ part: String, allowIPv4Tail: Bool) throws(CIDRError) -> [UInt16] {
            guard !part.isEmpty else { return [] }
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            var result: [UInt16] = []
            for (index, field) in fields.enumerated() {
                if allowIPv4Tail && index == fields.count - 1 && field.contains(".") {
                    let bytes = try parseIPv4(field, whole: whole, allowShort: false)
                    result.append(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
                    result.append(UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
                } else {
                    guard !field.isEmpty else { throw fail("empty group (a single ':' where '::' was meant?)") }
                    guard field.count <= 4, let value = UInt16(field, radix: 16) else {
                        throw fail("group '\(field)' is not 1 to 4 hexadecimal digits")
                    }
                    result.append(value)
                }
            }
            return result
        }
        var words: [UInt16]
        if halves.count == 2 {
            let head = try groups(halves[0], allowIPv4Tail: false)
            let tail = try groups(halves[1], allowIPv4Tail: true)
            guard head.count + tail.count <= 7 else { throw fail("too many groups around '::'") }
            words = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            words = try groups(halves[0], allowIPv4Tail: true)
            guard words.count == 8 else { throw fail("an IPv6 address has eight groups (or '::')") }
        }
        return words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// The text around each `::`: `["fe80", "1"]` for `fe80::1`, one element when there is none.
    private static func splitAtDoubleColons(_ text: String) -> [String] {
        var parts: [String] = []
        var current: [Character] = []
        var characters = text[...]
        while let character = characters.popFirst() {
            if character == ":" && characters.first == ":" {
                characters.removeFirst()
                parts.append(String(current))
                current = []
            } else {
                current.append(character)
            }
        }
        parts.append(String(current))
        return parts
    }

    /// RFC 5952 text: lower case, the longest run of two or more zero groups as `::`.
    private static func formatIPv6(high: UInt64, low: UInt64) -> String {
        let words = (0..<8).map { index -> UInt16 in
            let source = index < 4 ? high : low
            return UInt16(truncatingIfNeeded: source >> UInt64((3 - index % 4) * 16))
        }
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            guard words[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8 && words[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        func hex(_ slice: ArraySlice<UInt16>) -> String {
            slice.map { String($0, radix: 16) }.joined(separator: ":")
        }
        guard bestStart >= 0 else { return hex(words[...]) }
        return hex(words[..<bestStart]) + "::" + hex(words[(bestStart + bestLength)...])
    }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
