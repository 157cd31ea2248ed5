import OSCCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Time tags as the command line writes them.
///
/// `ssssssss.ffffffff` in hexadecimal is the form `oscdump` prints, so a dumped time tag can be
/// sent again as it is; `now`, `immediately` and `+SECONDS` (from now) are for people.
enum TimeTagText {
    /// The forms that ``parse(_:)`` accepts, for error messages.
    static let expected = "'now', 'immediately', '+SECONDS' or 'SSSSSSSS.FFFFFFFF' in hexadecimal"

    /// The time tag of the current time, as liblo's `lo_timetag_now` gives it.
    static func now() -> OSCTimeTag {
        OSCTimeTag(secondsSince1970: Date().timeIntervalSince1970)
    }

    /// Reads a time tag, or returns `nil` if the text has none of the accepted forms.
    static func parse(_ text: String) -> OSCTimeTag? {
        switch text {
        case "now": return now()
        case "immediately": return .immediately
        default: break
        }
        if text.hasPrefix("+") {
            guard let offset = Double(text.dropFirst()), offset.isFinite, offset >= 0 else { return nil }
            return OSCTimeTag(secondsSince1970: Date().timeIntervalSince1970 + offset)
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy(\.isHexDigit) }),
            let seconds = UInt32(parts[0], radix: 16), let fraction = UInt32(parts[1], radix: 16)
        else { return nil }
        return OSCTimeTag(seconds: seconds, fraction: fraction)
    }
}
