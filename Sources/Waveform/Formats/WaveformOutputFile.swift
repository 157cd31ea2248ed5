#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written whole once it is made (a picture, a text), to a path or an open descriptor,
/// the way ``WaveformFileWriter`` writes min/max data.
///
/// A regular file, or a path where nothing is yet, is written through a temporary file in the
/// same directory that ``finish()`` renames over it: a file that existed is untouched until the
/// new one is whole, and a failure leaves nothing behind. Anything else (a device such as
/// `/dev/full`, a FIFO) is opened and written in place, never replaced by a regular file; so is
/// a descriptor such as standard output. Every failure is a ``WaveformWriteError`` naming the
/// destination and the system's reason.
///
/// ```swift
/// let file = try WaveformOutputFile(path: "song.png")
/// try file.write(pngBytes)
/// try file.finish()
/// ```
public final class WaveformOutputFile {
    /// The destination, as given (or the name given for a descriptor, such as `<stdout>`).
    public let path: String
    /// The temporary file renamed over ``path`` by ``finish()``, if any: a caller that must
    /// remove it when a signal ends the process (``cancel()`` cannot run then) reads it here.
    public private(set) var temporaryPath: String?
    /// Where the bytes go; -1 once closed.
    private var descriptor: Int32
    /// Whether this object opened `descriptor` and so closes it.
    private let ownsDescriptor: Bool

    /// Opens the destination at once, so that one that cannot be written fails before anything
    /// is made: the temporary file next to a regular file, or the device or FIFO itself (which
    /// waits for a reader, as a shell's redirection does).
    ///
    /// - Throws: ``WaveformWriteError`` naming `path`.
    public init(path: String) throws(WaveformWriteError) {
        self.path = path
        ownsDescriptor = true
        switch try WaveformDestination(path: path) {
        case .inPlace:
            descriptor = try WaveformFileWriter.openFile(path, flags: O_WRONLY | O_CLOEXEC, reportedAs: path)
        case .replaced(let directory, let name, let mode):
            let temporary = try WaveformFileWriter.makeTemporary(prefix: directory + "." + name, reportedAs: path)
            descriptor = temporary.descriptor
            temporaryPath = temporary.path
            // The new file keeps the permissions of the one it replaces.
            if let mode { fchmod(descriptor, mode) }
        }
    }

    /// Writes to an open descriptor, which is not closed.
    /// - Parameters:
    ///   - fileDescriptor: where the bytes go, at its current offset.
    ///   - name: what errors call it, such as `<stdout>`.
    public init(fileDescriptor: Int32, name: String) {
        path = name
        descriptor = fileDescriptor
        ownsDescriptor = false
    }

    deinit {
        cancel()
    }

    /// Writes every byte, retrying short writes and `EINTR`.
    /// - Throws: ``WaveformWriteError`` (`No space left on device`, `Broken pipe`, …); the
    ///   temporary file, if any, is removed.
    public func write(_ bytes: [UInt8]) throws(WaveformWriteError) {
        guard descriptor >= 0 else { throw WaveformWriteError(path: path, call: "write", code: EBADF) }
        do {
            try WaveformFileWriter.writeAll(bytes, to: descriptor, at: nil, reportedAs: path)
        } catch {
            cancel()
            throw error
        }
    }

    /// Closes what was opened and renames the temporary file over the destination.
    /// - Throws: ``WaveformWriteError`` from `close` or `rename`, after removing the temporary
    ///   file; the destination is then as it was.
    public func finish() throws(WaveformWriteError) {
        guard ownsDescriptor, descriptor >= 0 else { return }
        let closed = close(descriptor)
        let closeError = errno
        descriptor = -1
        guard closed == 0 else {
            cancel()
            throw WaveformWriteError(path: path, call: "close", code: closeError)
        }
        guard let temporaryPath else { return }
        guard rename(temporaryPath, path) == 0 else {
            let renameError = errno
            cancel()
            throw WaveformWriteError(path: path, call: "rename", code: renameError)
        }
        self.temporaryPath = nil
    }

    /// Gives up: closes what was opened and removes the temporary file.
    public func cancel() {
        if ownsDescriptor && descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let temporaryPath { unlink(temporaryPath) }
        temporaryPath = nil
    }
}
