import Foundation

/// The directory below which `/wave/load` may read files (`--media-dir`), and the check that keeps
/// peers inside it.
///
/// A path is refused when it has a `..` component (whatever it resolves to), when it is absolute
/// and not below the directory, or when a symbolic link anywhere along it leads out: both the
/// directory and the file are resolved with `realpath(3)` and compared component by component, so
/// that `/media-other` is not taken for a child of `/media`.
struct WaveMediaDirectory: Sendable {
    /// The directory as configured.
    let path: String

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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return .failure(.notAFile(requested)) }
        return .success(resolved)
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
