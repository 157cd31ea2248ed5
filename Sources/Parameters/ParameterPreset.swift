#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A snapshot of a tree's values by key path, stored as JSON:
/// `{"format": "knoblink-preset", "version": 1, "name": "…", "values": {"knob.gain": -6, …}}`.
public struct ParameterPreset: Sendable, Hashable {
    /// The largest preset file read: 4 MiB.
    public static let maximumFileSize = 4 << 20
    static let format = "knoblink-preset"

    /// The preset's name, if it has one.
    public var name: String?
    /// The values, by key path, in the parameters' own units.
    public var values: [String: ParameterValue]
    /// Entries of the file that are not numbers; ``ParameterTree/restore(_:originator:)`` reports them.
    public var invalidEntries: [String: String]

    /// Creates a preset from values.
    public init(name: String? = nil, values: [String: ParameterValue]) {
        self.name = name
        self.values = values
        invalidEntries = [:]
    }

    /// Reads a preset from its JSON text.
    ///
    /// Entries whose value is not a number do not make the whole preset fail: they are kept in
    /// ``invalidEntries`` and reported when the preset is restored.
    /// - Throws: ``PresetError`` when the text is not a preset at all.
    public init(jsonData: some Collection<UInt8>) throws(PresetError) {
        guard jsonData.count <= ParameterPreset.maximumFileSize else {
            throw .fileTooLarge(bytes: jsonData.count, limit: ParameterPreset.maximumFileSize)
        }
        let root: JSONValue
        do {
            root = try JSONReader.parse(Array(jsonData), maximumDepth: 8)
        } catch {
            throw .invalidJSON(offset: error.offset, reason: error.reason)
        }
        guard case .object(let members) = root else { throw .unsupportedFormat("the top level must be an object") }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        guard member("format") == .string(ParameterPreset.format) else {
            throw .unsupportedFormat("'format' must be \"\(ParameterPreset.format)\"")
        }
        guard member("version") == .number("1") else { throw .unsupportedFormat("'version' must be 1") }
        if let unknown = members.first(where: { !["format", "version", "name", "values"].contains($0.key) }) {
            throw .unsupportedFormat("unknown field '\(unknown.key)'")
        }
        switch member("name") {
        case nil: name = nil
        case .string(let text)?: name = text
        default: throw .unsupportedFormat("'name' must be a string")
        }
        guard case .object(let entries)? = member("values") else {
            throw .unsupportedFormat("'values' must be an object of key paths and numbers")
        }
        values = [:]
        invalidEntries = [:]
        for entry in entries {
            if case .number(let text) = entry.value, let value = ParameterValue(text) {
                values[entry.key] = value
            } else {
                invalidEntries[entry.key] = entry.value.typeName
            }
        }
    }

    /// Reads a preset file.
    /// - Throws: ``PresetError``.
    public init(contentsOf url: URL) throws(PresetError) {
        let data: Data
        do {
            let size = try SystemFile.size(atPath: url.path)
            guard size <= ParameterPreset.maximumFileSize else {
                throw PresetError.fileTooLarge(bytes: size, limit: ParameterPreset.maximumFileSize)
            }
            data = try Data(contentsOf: url)
        } catch let error as PresetError {
            throw error
        } catch {
            throw .unreadable(path: url.path, reason: SystemFile.reason(error))
        }
        try self.init(jsonData: data)
    }

    /// The preset as JSON text, key paths sorted.
    public func jsonString() -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("format", .string(ParameterPreset.format)), ("version", .number("1")),
        ]
        if let name { members.append(("name", .string(name))) }
        let entries = values.keys.sorted().map { (key: $0, value: JSONWriter.number(values[$0]!)) }
        members.append(("values", .object(entries)))
        return JSONWriter.write(.object(members))
    }

    /// Writes the preset atomically (temporary file in the same directory, fsync, rename).
    /// - Throws: the file system's error; the destination is then unchanged.
    public func write(to url: URL) throws {
        try AtomicFile.write(Data(jsonString().utf8), to: url)
    }
}
