#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Checks `knoblink serve --state` and `--media-dir` before the server starts, so that a path
/// that cannot work is refused at once (exit status 1, as `--presets` is) rather than when the
/// first state is written, at shutdown, or when a peer asks for `/wave/load`.
///
/// Every refusal names the option, the path and the system's reason:
/// `cannot use '/tmp' for --state: Is a directory`.
enum ServePathCheck {
    /// The state file is read at start and written through a temporary file renamed over it,
    /// so it must be a regular file that can be read, or nothing yet, in a directory where a
    /// file can be created.
    static func checkStateFile(_ path: String) throws(CommandFailure) {
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { throw failure(path, "--state", code: EISDIR) }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw CommandFailure("cannot use '\(path)' for --state: not a regular file")
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure(path, "--state", code: errno) }
            close(descriptor)
        } else if errno != ENOENT {
            throw failure(path, "--state", code: errno)
        }
        let directory = DecimalText.deletingLastPathComponent(path)
        try checkCanCreateFile(in: directory.isEmpty ? "." : directory, for: path)
    }

    /// `/wave/load` resolves names below the media directory, so it must be a directory that
    /// can be listed.
    static func checkMediaDirectory(_ path: String) throws(CommandFailure) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path, "--media-dir", code: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw failure(path, "--media-dir", code: ENOTDIR) }
        guard let directory = opendir(path) else { throw failure(path, "--media-dir", code: errno) }
        closedir(directory)
    }

    /// Creates and removes a file in `directory`: permissions alone do not tell (root passes
    /// every `access` check, yet cannot create a file on a read-only file system or in /proc).
    private static func checkCanCreateFile(in directory: String, for path: String) throws(CommandFailure) {
        let probe = "\(directory)/.knoblink-state-check.\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path, "--state", code: errno) }
        close(descriptor)
        unlink(probe)
    }

    private static func failure(_ path: String, _ option: String, code: Int32) -> CommandFailure {
        CommandFailure("cannot use '\(path)' for \(option): \(String(cString: strerror(code)))")
    }
}
