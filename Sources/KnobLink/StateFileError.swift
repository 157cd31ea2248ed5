import Parameters

/// Why a state file could not be read or written. The server reports it and goes on.
public enum StateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but is not a state file (too large, not JSON, wrong format, unreadable)
    /// and could not be renamed aside, so nothing is written over it.
    case unreadable(path: String, PresetError)
    /// The file was not a state file; it was renamed to `keptAs` and the server starts from the
    /// defaults.
    case keptAside(path: String, PresetError, keptAs: String)
    /// Writing failed; the previous file, if any, is unchanged.
    case writeFailed(path: String, reason: String)

    /// `state file '/var/lib/x.json' ignored: not JSON at byte 3: …`, and so on.
    public var description: String {
        switch self {
        case .unreadable(let path, let error):
            "state file '\(path)' ignored: \(StateFileError.describe(error)); it is left as it is and not written"
        case .keptAside(let path, let error, let kept):
            "state file '\(path)' ignored: \(StateFileError.describe(error)); kept as '\(kept)', starting from the defaults"
        case .writeFailed(let path, let reason):
            "state file '\(path)' not written: \(reason)"
        }
    }

    private static func describe(_ error: PresetError) -> String {
        switch error {
        case .fileTooLarge(let bytes, let limit): "file of \(bytes) bytes is larger than \(limit)"
        case .unreadable(_, let reason): "unreadable: \(reason)"
        case .invalidJSON(let offset, let reason): "not JSON at byte \(offset): \(reason)"
        case .unsupportedFormat(let reason): "not a state file: \(reason)"
        }
    }
}
