import Foundation
import Parameters

/// Reads the parameter tree that `tree` and `serve` work on: a tree file, or the embedded default.
enum TreeLoader {
    /// The tree of `path`, or the embedded default tree when `path` is `nil`.
    /// - Throws: ``CommandFailure`` naming the file, then the node and the field that are wrong
    ///   (`examples/bad.json: 'knob.gain': field 'min' must be a number`).
    static func load(_ path: String?) throws(CommandFailure) -> ParameterTree {
        guard let path else { return ParameterTree.makeDefault() }
        // Foundation's own words for these are long and locale-dependent.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure("\(path): is a directory, not a tree file") }
        do {
            return try ParameterTree(contentsOf: URL(fileURLWithPath: path))
        } catch {
            // The unreadable case names the path itself; every other case names only the node.
            if case .unreadable = error { throw CommandFailure("\(error)") }
            throw CommandFailure("\(path): \(error)")
        }
    }
}
