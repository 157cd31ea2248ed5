import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Reads the parameter tree that `tree` and `serve` work on: a tree file, or the embedded default.
enum TreeLoader {
    /// The tree of `path`, or the embedded default tree when `path` is `nil`.
    /// - Throws: ``CommandFailure`` naming the file, then the node and the field that are wrong
    ///   (`examples/bad.json: 'knob.gain': field 'min' must be a number`).
    static func load(_ path: String?) throws(CommandFailure) -> ParameterTree {
        guard let path else { return ParameterTree.makeDefault() }
        // Foundation's own words for these are long and locale-dependent: the system's reason
        // instead (`Not a directory`, `Permission denied`).
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { throw CommandFailure("\(path): no such file") }
            throw CommandFailure("\(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw CommandFailure("\(path): is a directory, not a tree file")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CommandFailure("\(path): \(String(cString: strerror(errno)))") }
        close(descriptor)
        do {
            return try ParameterTree(contentsOf: URL(fileURLWithPath: path))
        } catch {
            // The unreadable case names the path itself; every other case names only the node.
            if case .unreadable = error { throw CommandFailure("\(error)") }
            throw CommandFailure("\(path): \(error)")
        }
    }
}
