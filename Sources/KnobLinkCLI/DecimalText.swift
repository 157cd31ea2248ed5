#if canImport(Glibc)
    import Glibc
#endif

/// Numbers and paths as the command prints them, through the C library rather than Foundation's
/// `String(format:)` and `NSString` (which FoundationEssentials does not have).
enum DecimalText {
    /// `value` with `decimals` digits after the point, as C's `%.*f` writes it (`%f` is 6).
    static func fixed(_ value: Double, decimals: Int) -> String {
        // 512 bytes hold the usual values; %f writes every integer digit of a huge one, so the
        // buffer then grows once, to the length the first call reported.
        var buffer = [CChar](repeating: 0, count: 512)
        while true {
            let count = withVaList([Int32(decimals), value]) { arguments in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
            }
            guard count >= 0 else { return String(value) }
            guard Int(count) >= buffer.count else { break }
            buffer = [CChar](repeating: 0, count: Int(count) + 1)
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The last part of a path: `song.wav` of `/music/song.wav` (trailing slashes ignored).
    static func lastPathComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The directory part of a path: `/music` of `/music/song.wav`, `/` of `/song.wav`, and the
    /// empty string for a bare name.
    static func deletingLastPathComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// `path` without the slashes at its end (a lone `/` stays).
    private static func withoutTrailingSlashes(_ path: String) -> String {
        guard path.count > 1, path.hasSuffix("/") else { return path }
        return String(path.reversed().drop { $0 == "/" }.reversed())
    }
}
