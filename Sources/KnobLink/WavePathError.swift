/// Why `/wave/load` refused a path (PROTOCOL.md section 5: only files below `--media-dir`).
enum WavePathError: Error, Equatable, CustomStringConvertible {
    /// The server has no media directory, so it loads nothing.
    case noMediaDirectory
    /// The media directory itself cannot be resolved.
    case mediaDirectoryUnavailable(String)
    /// An empty path, or one with a NUL byte.
    case invalid(String)
    /// The path has a `..` component.
    case parentComponent(String)
    /// The path, once its symbolic links are resolved, is not below the media directory.
    case outside(String)
    /// Nothing exists at the path.
    case notFound(String)
    /// The path names a directory or another non-regular file.
    case notAFile(String)

    var description: String {
        switch self {
        case .noMediaDirectory: "no media directory (start the server with --media-dir DIR)"
        case .mediaDirectoryUnavailable(let path): "the media directory '\(path)' cannot be used"
        case .invalid(let path): "invalid path '\(path)'"
        case .parentComponent(let path): "'..' is not allowed in '\(path)'"
        case .outside(let path): "'\(path)' is outside the media directory"
        case .notFound(let path): "'\(path)' does not exist"
        case .notAFile(let path): "'\(path)' is not a regular file"
        }
    }
}
