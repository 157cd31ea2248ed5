import Locking
import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A directory of presets, one file `NAME.json` each (PROTOCOL.md rule 9.15), in the format of
/// `ParameterPreset`.
///
/// Saving overwrites atomically (temporary file, fsync, rename), so a crash leaves either the old
/// preset or the new one. Reading is bounded: a file larger than
/// `ParameterPreset/maximumFileSize` or one that is not a regular file (a FIFO, a
/// device behind a symbolic link) is refused without reading it whole. Entries that do not fit
/// the tree (unknown, out of range, not numbers) do not stop a load: the rest is applied and the
/// report lists them. Saves are bounded by ``limits``: the number of presets, their bytes, and
/// the rate of saves (shared by every copy of the store).
public struct PresetStore: Sendable {
    /// The longest preset name.
    public static let maximumNameLength = 64

    /// The directory holding the presets.
    public let directory: URL
    /// What saves may add to the directory, and how often.
    public let limits: PresetLimits
    /// The saves left in the current burst; shared by copies of the store.
    private let saveBudget: Locked<TokenBucket>

    /// A store over `directory`, created (with its parents) if it does not exist.
    /// - Parameters:
    ///   - directory: the presets directory.
    ///   - limits: what saves may add (unlimited by default, for an embedder's own use).
    /// - Throws: ``PresetStoreError/fileSystem(_:reason:)`` if it cannot be created or is a file.
    public init(directory: URL, limits: PresetLimits = .unlimited) throws(PresetStoreError) {
        self.directory = directory
        self.limits = limits
        saveBudget = Locked(
            TokenBucket(capacity: limits.saveBurst, refillPerSecond: limits.savesPerSecond, source: .monotonic))
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory else {
                throw .fileSystem(directory.path, reason: "exists and is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(directory.path, reason: "cannot create the directory (\(SystemFile.reason(error)))")
        }
    }

    /// A store over the directory at `path`; see ``init(directory:limits:)``.
    public init(path: String, limits: PresetLimits = .unlimited) throws(PresetStoreError) {
        try self.init(directory: URL(fileURLWithPath: path, isDirectory: true), limits: limits)
    }

    /// Checks a name against `[A-Za-z0-9 _.-]{1,64}`, not starting with `.`.
    /// - Throws: ``PresetStoreError/invalidName(_:reason:)`` saying which part is wrong.
    public static func validate(name: String) throws(PresetStoreError) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { throw .invalidName(name, reason: "the name is empty") }
        guard bytes.count <= maximumNameLength else {
            throw .invalidName(name, reason: "longer than \(maximumNameLength) characters")
        }
        guard bytes[0] != UInt8(ascii: ".") else { throw .invalidName(name, reason: "starts with '.'") }
        for byte in bytes where !isAllowed(byte) {
            let shown =
                byte < 0x20 || byte >= 0x7F
                ? "0x" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
                : "'\(Character(Unicode.Scalar(byte)))'"
            throw .invalidName(name, reason: "character \(shown) is not a letter, digit, space, '_', '.' or '-'")
        }
    }

    /// Whether `name` is a valid preset name.
    public static func isValid(name: String) -> Bool {
        (try? validate(name: name)) != nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: " "), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// The file of a preset: `directory/NAME.json`.
    /// - Throws: ``PresetStoreError/invalidName(_:reason:)``.
    public func fileURL(for name: String) throws(PresetStoreError) -> URL {
        try PresetStore.validate(name: name)
        return directory.appendingPathComponent(name + ".json", isDirectory: false)
    }

    /// Saves the tree's current values as preset `name`, replacing any preset of that name.
    /// - Returns: the preset written.
    /// - Throws: ``PresetStoreError/invalidName(_:reason:)`` or ``PresetStoreError/fileSystem(_:reason:)``.
    @discardableResult
    public func save(_ tree: ParameterTree, as name: String) throws(PresetStoreError) -> ParameterPreset {
        let preset = tree.makePreset(name: name)
        try save(preset, as: name)
        return preset
    }

    /// Writes `preset` as preset `name`, replacing any preset of that name.
    /// - Throws: ``PresetStoreError/invalidName(_:reason:)``, ``PresetStoreError/limitReached(_:)``
    ///   (too many presets, too many bytes, too many saves a second) or
    ///   ``PresetStoreError/fileSystem(_:reason:)``.
    public func save(_ preset: ParameterPreset, as name: String) throws(PresetStoreError) {
        let url = try fileURL(for: name)
        var named = preset
        named.name = name
        let data = Data(named.jsonString().utf8)
        try checkRoom(for: data.count, replacing: name + ".json")
        guard saveBudget.withLock({ $0.consume(source: .monotonic) }) else {
            throw .limitReached(
                "more than \(limits.savesPerSecond) saves a second (bursts of \(limits.saveBurst)); try again later")
        }
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            throw .fileSystem(url.path, reason: "cannot write (\(SystemFile.reason(error)))")
        }
    }

    /// Refuses a save of `bytes` as the file `file` that would take the directory past
    /// ``limits``; a file it replaces no longer counts.
    private func checkRoom(for bytes: Int, replacing file: String) throws(PresetStoreError) {
        guard limits.maximumCount < .max || limits.maximumBytes < .max else { return }
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .fileSystem(directory.path, reason: "cannot list (\(SystemFile.reason(error)))")
        }
        var count = 0
        var total = 0
        for other in files where other != file && other.hasSuffix(".json") {
            guard PresetStore.isValid(name: String(other.dropLast(5))) else { continue }
            count += 1
            var status = stat()
            if lstat(directory.appendingPathComponent(other).path, &status) == 0 {
                total = total.addingReportingOverflow(Int(status.st_size)).partialValue
            }
        }
        guard count < limits.maximumCount else {
            throw .limitReached("the directory holds \(count) presets, the most allowed; delete one or replace one")
        }
        guard bytes <= limits.maximumBytes - min(total, limits.maximumBytes) else {
            throw .limitReached(
                "\(bytes) more bytes would take the presets past \(limits.maximumBytes) bytes (\(total) used)")
        }
    }

    /// Reads preset `name`.
    /// - Throws: ``PresetStoreError/notFound(_:)``, ``PresetStoreError/unreadable(_:_:)`` or
    ///   ``PresetStoreError/invalidName(_:reason:)``.
    public func preset(named name: String) throws(PresetStoreError) -> ParameterPreset {
        let url = try fileURL(for: name)
        let found: Data?
        do {
            found = try PresetStore.readBounded(url)
        } catch {
            throw .unreadable(name, error)
        }
        guard let found else { throw .notFound(name) }
        do {
            return try ParameterPreset(jsonData: found)
        } catch {
            throw .unreadable(name, error)
        }
    }

    /// Reads preset `name` and applies what fits the tree (see
    /// `ParameterTree/restore(_:originator:)`).
    /// - Returns: what was applied and what was not.
    /// - Throws: as ``preset(named:)``; the tree is then unchanged.
    @discardableResult
    public func load(
        _ name: String, into tree: ParameterTree, originator: ParameterObserverToken? = nil
    ) throws(PresetStoreError) -> PresetRestoreReport {
        tree.restore(try preset(named: name), originator: originator)
    }

    /// The names of the presets in the directory, sorted; files whose name is not a valid preset
    /// name (temporary files among them) are left out.
    /// - Throws: ``PresetStoreError/fileSystem(_:reason:)`` if the directory cannot be listed.
    public func list() throws(PresetStoreError) -> [String] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .fileSystem(directory.path, reason: "cannot list (\(SystemFile.reason(error)))")
        }
        return files.compactMap { file -> String? in
            guard file.hasSuffix(".json") else { return nil }
            let name = String(file.dropLast(5))
            return PresetStore.isValid(name: name) ? name : nil
        }
        .sorted()
    }

    /// Deletes preset `name`.
    /// - Throws: ``PresetStoreError/notFound(_:)`` if there is none, or the other errors.
    public func delete(_ name: String) throws(PresetStoreError) {
        let url = try fileURL(for: name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw .notFound(name) }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw .fileSystem(url.path, reason: "cannot delete (\(SystemFile.reason(error)))")
        }
    }

    /// Reads at most one byte more than the preset limit, from a regular file only.
    /// - Returns: the bytes, or `nil` if there is no file at `url`.
    /// - Throws: `PresetError` if it is too large, not a regular file or unreadable.
    static func readBounded(_ url: URL) throws(PresetError) -> Data? {
        let limit = ParameterPreset.maximumFileSize
        let resolved = url.resolvingSymlinksInPath()
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved.path) else {
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil {
                throw .unreadable(path: url.path, reason: "a symbolic link to nothing")
            }
            return nil
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .unreadable(path: url.path, reason: "not a regular file")
        }
        let size = (attributes[.size] as? Int) ?? Int((attributes[.size] as? UInt64) ?? 0)
        guard size <= limit else { throw .fileTooLarge(bytes: size, limit: limit) }
        let data: Data
        do {
            data = try SystemFile.read(atPath: resolved.path, limit: limit + 1)
        } catch {
            throw .unreadable(path: url.path, reason: SystemFile.reason(error))
        }
        // The file may have grown since its size was read.
        guard data.count <= limit else { throw .fileTooLarge(bytes: data.count, limit: limit) }
        return data
    }
}
