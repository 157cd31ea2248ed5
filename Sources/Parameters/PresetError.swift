/// Why a preset file could not be read at all. Problems with single entries are not errors:
/// they are listed in a ``PresetRestoreReport``.
public enum PresetError: Error, Sendable, Hashable {
    /// The file is larger than ``ParameterPreset/maximumFileSize``.
    case fileTooLarge(bytes: Int, limit: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The text is not JSON.
    case invalidJSON(offset: Int, reason: String)
    /// The JSON is not a preset of a format and version this library reads.
    case unsupportedFormat(String)
}
