#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a path given for output is written.
///
/// Only a regular file, or a path where nothing is yet, may be replaced through a temporary
/// file renamed over it: renaming over a device or a FIFO would put a regular file in its place
/// (`/dev/full` replaced by a file), so anything else is opened and written in place.
enum WaveformDestination {
    /// A device, a FIFO, a socket: opened for writing as it is.
    case inPlace
    /// A regular file or nothing yet: a temporary file `directory.name.<random>.tmp` is renamed
    /// over it; `mode` is the permissions of the file replaced, if there was one.
    case replaced(directory: String, name: String, mode: mode_t?)

    /// Looks at what `path` names now (following symbolic links, as writing would).
    /// - Throws: ``WaveformWriteError`` when `stat` fails for another reason than the path not
    ///   existing (a directory on the way that cannot be searched, for one).
    init(path: String) throws(WaveformWriteError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFREG else {
                self = .inPlace
                return
            }
        } else if errno != ENOENT {
            throw WaveformWriteError(path: path, call: "stat", code: errno)
        }
        let exists = status.st_mode & S_IFMT == S_IFREG
        let slash = path.lastIndex(of: "/")
        self = .replaced(
            directory: slash.map { String(path[...$0]) } ?? "",
            name: slash.map { String(path[path.index(after: $0)...]) } ?? path,
            mode: exists ? status.st_mode & 0o7777 : nil)
    }
}
