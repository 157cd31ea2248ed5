/// Checks UTF-8 (RFC 3629) one byte at a time, so that text can be checked as its fragments and
/// bytes arrive and refused at the first byte that cannot be UTF-8.
///
/// Refuses overlong forms, surrogates (U+D800–U+DFFF) and code points past U+10FFFF at the byte
/// where they become certain, as RFC 3629 section 4's table of well-formed sequences does.
struct UTF8Validator: Sendable, Hashable {
    // Stream offset of the current sequence's first byte, for a sequence cut off by the end.
    private var sequenceStart = 0
    // Continuation bytes still expected in the current sequence.
    private var remaining = 0
    // The range the next continuation byte must fall in (narrower than 0x80–0xBF only right after
    // E0, ED, F0 and F4).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Takes the next byte, which is at `offset` in the stream.
    /// - Throws: ``WebSocketError/invalidUTF8(offset:)`` at `offset` if the byte cannot come here.
    mutating func take(_ byte: UInt8, at offset: Int) throws(WebSocketError) {
        if remaining == 0 { sequenceStart = offset }
        guard accept(byte) else { throw .invalidUTF8(offset: offset) }
    }

    /// Checks that the text ends between two characters.
    /// - Throws: ``WebSocketError/invalidUTF8(offset:)`` at the first byte of a cut-off sequence.
    func finish() throws(WebSocketError) {
        guard remaining == 0 else { throw .invalidUTF8(offset: sequenceStart) }
    }

    private mutating func accept(_ byte: UInt8) -> Bool {
        if remaining > 0 {
            guard low <= byte && byte <= high else { return false }
            remaining -= 1
            low = 0x80
            high = 0xBF
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: remaining = 1
        case 0xE0:
            remaining = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
        case 0xED:
            remaining = 2
            high = 0x9F
        case 0xF0:
            remaining = 3
            low = 0x90
        case 0xF1...0xF3: remaining = 3
        case 0xF4:
            remaining = 3
            high = 0x8F
        default: return false
        }
        return true
    }
}
