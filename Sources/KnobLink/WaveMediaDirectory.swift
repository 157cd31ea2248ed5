import Locking

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The directory below which `/wave/load` may read files (`--media-dir`), and the check that keeps
/// peers inside it.
///
/// A path is refused when it has a `..` component (whatever it resolves to), when it is absolute
/// and not below the directory, or when a symbolic link anywhere along it leads out: both the
/// directory and the file are resolved with `realpath(3)` and compared component by component, so
/// that `/media-other` is not taken for a child of `/media`. Only regular files are given out: a
/// FIFO, a socket or a device is refused.
struct WaveMediaDirectory: Sendable {
    /// The directory as configured.
    let path: String
    /// The files that failed to decode, by resolved path, with the version that failed and why:
    /// asked again for the same version, the server answers with the reason instead of decoding
    /// it again. Decoding a damaged file is not free: libsndfile 1.2.0 leaks 5.6 KB for every
    /// Ogg Vorbis file whose headers it cannot read, so a peer repeating `/wave/load` of one
    /// would grow the server without end. One entry per file of the directory, at most
    /// ``maximumRememberedFailures``.
    private let failures = Locked<[String: (version: WaveFileVersion, reason: String)]>([:])
    /// The most failed files remembered; the directory is the operator's, so this is only a bound.
    static let maximumRememberedFailures = 4096

    init(path: String) {
        self.path = path
    }

    /// The resolved file that `requested` names, relative to the directory or absolute.
    func resolve(_ requested: String) -> Result<String, WavePathError> {
        guard !requested.isEmpty, !requested.utf8.contains(0) else { return .failure(.invalid(requested)) }
        guard !requested.split(separator: "/", omittingEmptySubsequences: true).contains("..") else {
            return .failure(.parentComponent(requested))
        }
        guard let base = Self.realPath(path) else { return .failure(.mediaDirectoryUnavailable(path)) }
        let joined = requested.hasPrefix("/") ? requested : path + "/" + requested
        guard let resolved = Self.realPath(joined) else {
            // An absolute path outside reads "outside" whether or not it exists, so that a peer
            // cannot probe for files elsewhere.
            return .failure(
                requested.hasPrefix("/") && !Self.isBelow(joined, base) ? .outside(requested) : .notFound(requested))
        }
        guard Self.isBelow(resolved, base) else { return .failure(.outside(requested)) }
        // stat(2) never waits, even on a FIFO; the decoder checks the opened file again.
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(.notAFile(requested))
        }
        return .success(resolved)
    }

    /// Why `path` failed to decode, if it did and has not changed since.
    func failure(of path: String, version: WaveFileVersion) -> String? {
        failures.withLock { $0[path] }.flatMap { $0.version == version ? $0.reason : nil }
    }

    /// Remembers that `version` of `path` failed to decode, and why.
    func noteFailure(of path: String, version: WaveFileVersion, reason: String) {
        failures.withLock { failures in
            guard failures[path] != nil || failures.count < Self.maximumRememberedFailures else { return }
            failures[path] = (version, reason)
        }
    }

    /// Whether `path` is strictly below `base`, component by component (both already absolute).
    static func isBelow(_ path: String, _ base: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let baseParts = base.split(separator: "/", omittingEmptySubsequences: true)
        return parts.count > baseParts.count && parts.starts(with: baseParts)
    }

    /// `realpath(3)`: the absolute path with every symbolic link, `.` and `..` resolved, or `nil`
    /// when some component does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
