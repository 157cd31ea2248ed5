/// A validated OSC address pattern, such as `/knob/p1*` or `//gain`.
///
/// Patterns match part by part, as OSC 1.0 specifies: `?` matches one byte and `*` any run of
/// bytes, neither crossing a `/`; `[abc]`, `[a-z]` and `[!a-z]` match one byte in (or not in)
/// the set; `{foo,bar}` matches one of the literal alternatives. OSC 1.1's `//` matches any
/// number of whole levels, none included: `//gain` matches `/gain` and `/a/b/gain`, `/a//b`
/// matches `/a/b` and `/a/x/y/b`, and a trailing `//` matches the address before it and every
/// address below it (`/a//` matches `/a` and `/a/b/c`).
///
/// Matching works on the UTF-8 bytes, never allocates, and needs at most
/// O(pattern length × address length) steps, whatever the pattern.
public struct OSCAddressPattern: Sendable, Hashable {
    /// The pattern's bytes, as validated.
    public let bytes: [UInt8]
    /// Whether the pattern uses any wildcard; if not, it matches exactly one address, itself.
    public let hasWildcards: Bool

    /// Validates `pattern` and keeps it for matching.
    ///
    /// - Throws: ``OSCAddressError`` naming the first problem and its offset.
    public init(_ pattern: String) throws(OSCAddressError) {
        try self.init(bytes: Array(pattern.utf8))
    }

    /// Validates the pattern `bytes` (UTF-8, without a NUL) and keeps them for matching.
    ///
    /// - Throws: ``OSCAddressError`` naming the first problem and its offset.
    public init(bytes: [UInt8]) throws(OSCAddressError) {
        // `withUnsafeBytes` rethrows untyped errors, so the typed error travels out as a value.
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(OSCAddressError) -> Bool in try Self.validate(pattern: raw) }
        }
        self.hasWildcards = try result.get()
        self.bytes = bytes
    }

    /// Whether `address` (its bytes, without a NUL) matches this pattern.
    ///
    /// The address itself is not validated: its bytes are compared as they are.
    /// - Complexity: O(pattern length × address length) at worst; no allocation.
    public func matches(_ address: UnsafeRawBufferPointer) -> Bool {
        // The matcher treats the first byte of the address as a part boundary, so it must be one.
        guard address.first == UInt8(ascii: "/") else { return false }
        var steps = 0
        return bytes.withUnsafeBytes { pattern in
            OSCAddressPatternMatcher.matches(pattern: pattern, from: 0, address: address, from: 0, steps: &steps)
        }
    }

    /// Whether `address` matches this pattern; see the overload that takes bytes.
    public func matches(_ address: String) -> Bool {
        var address = address
        return address.withUTF8 { matches(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `address` matches `pattern`, validating the pattern first, without allocating.
    ///
    /// - Throws: ``OSCAddressError`` if `pattern` is not a valid pattern.
    /// - Complexity: O(pattern length × address length) at worst.
    public static func matches(
        pattern: UnsafeRawBufferPointer, address: UnsafeRawBufferPointer
    ) throws(OSCAddressError) -> Bool {
        try validate(pattern: pattern)
        guard address.first == UInt8(ascii: "/") else { return false }
        var steps = 0
        return OSCAddressPatternMatcher.matches(pattern: pattern, from: 0, address: address, from: 0, steps: &steps)
    }
}

extension OSCAddressPattern: CustomStringConvertible {
    /// The pattern as text.
    public var description: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
