#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ParameterTree {
    /// The largest tree file read: 8 MiB.
    public static let maximumFileSize = 8 << 20

    /// Builds a tree from the JSON text of a tree file (Docs/PARAMETERS.md).
    /// - Throws: ``ParameterTreeError`` naming the offending node (by key path) and field.
    public convenience init(jsonData: some Collection<UInt8>) throws(ParameterTreeError) {
        try self.init(children: ParameterTree.decodeSpecs(jsonData: jsonData))
    }

    /// Reads and builds a tree file.
    /// - Throws: ``ParameterTreeError``; `.unreadable` when the file cannot be read.
    public convenience init(contentsOf url: URL) throws(ParameterTreeError) {
        let size: Int
        do {
            size = try SystemFile.size(atPath: url.path)
        } catch {
            throw .unreadable(path: url.path, reason: SystemFile.reason(error))
        }
        guard size <= ParameterTree.maximumFileSize else {
            throw .fileTooLarge(bytes: size, limit: ParameterTree.maximumFileSize)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: SystemFile.reason(error))
        }
        try self.init(jsonData: data)
    }

    /// Parses a tree file's JSON into descriptions, without building a tree (the same checks of
    /// the format; the structural checks run when a tree is built).
    public static func decodeSpecs(jsonData: some Collection<UInt8>) throws(ParameterTreeError) -> [ParameterNodeSpec] {
        guard jsonData.count <= maximumFileSize else {
            throw .fileTooLarge(bytes: jsonData.count, limit: maximumFileSize)
        }
        return try TreeFileDecoder.decode(Array(jsonData))
    }

    /// The tree's structure as tree-file JSON text (values are not part of it; see presets).
    public func jsonString() -> String {
        TreeFileEncoder.encode(specs)
    }

    /// Writes the tree file atomically (see ``AtomicFile``).
    public func write(to url: URL) throws {
        try AtomicFile.write(Data(jsonString().utf8), to: url)
    }
}
