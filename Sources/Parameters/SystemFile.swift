#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Plain words for a failed file operation, and the few file calls the modules share, through
/// the system rather than Foundation's `FileHandle` and localized descriptions (which need ICU).
public enum SystemFile {
    /// Why a file operation failed, as the system says it: "No such file or directory",
    /// "Permission denied", "No space left on device".
    public static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return text(ofErrno: posix.code.rawValue) }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.underlying as? POSIXError { return text(ofErrno: posix.code.rawValue) }
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return text(ofErrno: ENOENT)
            case .fileReadNoPermission, .fileWriteNoPermission: return text(ofErrno: EACCES)
            case .fileWriteOutOfSpace: return text(ofErrno: ENOSPC)
            case .fileWriteVolumeReadOnly: return text(ofErrno: EROFS)
            case .fileWriteFileExists: return text(ofErrno: EEXIST)
            case .fileReadTooLarge: return text(ofErrno: EFBIG)
            case .fileReadCorruptFile: return "the file is corrupt"
            case .fileReadInapplicableStringEncoding: return "the file is not UTF-8 text"
            default: return "file error \(cocoa.code.rawValue)"
            }
        }
        return String(describing: error)
    }

    /// The system's text for an `errno` value.
    public static func text(ofErrno code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The size in bytes of the file at `path`.
    /// - Throws: `POSIXError` when it cannot be read.
    public static func size(atPath path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Int(info.st_size)
    }

    /// Writes every byte to `descriptor`, again after an interruption or a short write.
    /// - Throws: `POSIXError` when the system refuses (a full disk, a closed pipe).
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError.current
            }
            offset += written
        }
    }

    /// At most `limit` bytes from the start of the file at `path` (fewer if it is shorter).
    /// - Throws: `POSIXError` when it cannot be opened or read.
    public static func read(atPath path: String, limit: Int) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError.current }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, limit - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw POSIXError.current
            }
            if got == 0 { break }
            count += got
        }
        return Data(bytes[..<count])
    }
}

/// Text helpers that Foundation's `trimmingCharacters(in:)` and `caseInsensitiveCompare` gave,
/// for the modules that use FoundationEssentials, which has neither.
public enum PlainText {
    /// `text` without the white space (and, with `newlines`, the line breaks) at either end.
    public static func trimmed(_ text: some StringProtocol, newlines: Bool = true) -> String {
        let isSpace: (Character) -> Bool = { newlines ? $0.isWhitespace : $0.isWhitespace && !$0.isNewline }
        guard let first = text.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = text.lastIndex(where: { !isSpace($0) })!
        return String(text[first...last])
    }

    /// Whether two texts are equal ignoring case.
    public static func equalIgnoringCase(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        lhs.lowercased() == rhs.lowercased()
    }
}
