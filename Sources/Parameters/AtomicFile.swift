import Foundation

/// Writes files so that a crash never leaves half a file (DESIGN.md, "Errors and bad input").
public enum AtomicFile {
    /// Writes `data` to a temporary file in the destination's directory, flushes it to disk
    /// (`fsync`), then renames it over the destination, which either keeps the old content or
    /// gets the whole new one.
    /// - Throws: `CocoaError` or `POSIXError` from the step that failed; the temporary file is removed.
    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: data)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            // rename(2) replaces the destination in one step; FileManager's move refuses to overwrite.
            guard rename(temporary.path, url.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
