import Parameters

/// Why a ``PresetStore`` operation failed. The text is what `/sys/error` tells the peer.
public enum PresetStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name does not match `[A-Za-z0-9 _.-]{1,64}` or starts with `.` (PROTOCOL.md rule 9.15).
    case invalidName(String, reason: String)
    /// No preset of that name exists.
    case notFound(String)
    /// The preset file exists but is not a preset (too large, not JSON, wrong format).
    case unreadable(String, PresetError)
    /// The presets directory could not be created, listed or written to.
    case fileSystem(String, reason: String)
    /// A save would pass one of the store's ``PresetLimits``; the reason says which.
    case limitReached(String)

    /// `preset 'Lead': not found`, and so on.
    public var description: String {
        switch self {
        case .invalidName(let name, let reason):
            "invalid preset name '\(name)': \(reason)"
        case .notFound(let name):
            "preset '\(name)': not found"
        case .unreadable(let name, let error):
            "preset '\(name)': \(PresetStoreError.describe(error))"
        case .fileSystem(let what, let reason):
            "\(what): \(reason)"
        case .limitReached(let reason):
            "preset not saved: \(reason)"
        }
    }

    private static func describe(_ error: PresetError) -> String {
        switch error {
        case .fileTooLarge(let bytes, let limit): "file of \(bytes) bytes is larger than \(limit)"
        case .unreadable(_, let reason): "unreadable: \(reason)"
        case .invalidJSON(let offset, let reason): "not JSON at byte \(offset): \(reason)"
        case .unsupportedFormat(let reason): "not a preset: \(reason)"
        }
    }
}
