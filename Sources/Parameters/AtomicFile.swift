#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that a crash never leaves half a file (DESIGN.md, "Errors and bad input").
public enum AtomicFile {
    /// Writes `data` to a temporary file in the destination's directory, flushes it to disk
    /// (`fsync`), then renames it over the destination, which either keeps the old content or
    /// gets the whole new one.
    /// - Throws: `POSIXError` from the step that failed; the temporary file is removed.
    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError.current }
        var open = true
        do {
            try data.withUnsafeBytes { try SystemFile.writeAll($0, to: descriptor) }
            guard fsync(descriptor) == 0 else { throw POSIXError.current }
            open = false
            guard close(descriptor) == 0 else { throw POSIXError.current }
            // rename(2) replaces the destination in one step; FileManager's move refuses to overwrite.
            guard rename(temporary.path, url.path) == 0 else { throw POSIXError.current }
        } catch {
            if open { _ = close(descriptor) }
            unlink(temporary.path)
            throw error
        }
    }
}

extension POSIXError {
    /// The error `errno` names now.
    public static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
