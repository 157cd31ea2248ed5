#if canImport(Glibc)
    import Glibc
#endif

/// Numbers and paths as the command prints them, through the C library rather than Foundation's
/// `String(format:)` and `NSString` (which FoundationEssentials does not have).
enum DecimalText {
    /// `value` with `decimals` digits after the point, as C's `%.*f` writes it (`%f` is 6).
    static func fixed(_ value: Double, decimals: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let count = withVaList([Int32(decimals), value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
        }
        guard count >= 0 else { return String(value) }
        if Int(count) >= buffer.count {
            // A huge number: %f writes all of its integer digits.
            buffer = [CChar](repeating: 0, count: Int(count) + 1)
            _ = withVaList([Int32(decimals), value]) { arguments in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
            }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The last part of a path: `song.wav` of `/music/song.wav` (trailing slashes ignored).
    static func lastPathComponent(_ path: String) -> String {
        let trimmed =
            path.count > 1 && path.hasSuffix("/") ? String(path.reversed().drop { $0 == "/" }.reversed()) : path
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The directory part of a path: `/music` of `/music/song.wav`, `/` of `/song.wav`, and the
    /// empty string for a bare name.
    static func deletingLastPathComponent(_ path: String) -> String {
        let trimmed =
            path.count > 1 && path.hasSuffix("/") ? String(path.reversed().drop { $0 == "/" }.reversed()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }
}
