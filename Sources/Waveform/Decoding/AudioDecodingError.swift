/// Why an audio file could not be decoded: the file and the reason.
public struct AudioDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path of the file, as given.
    public var path: String
    /// What went wrong.
    public var reason: Reason

    /// Creates an error for `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// `cannot decode 'PATH': REASON`.
    public var description: String {
        "cannot decode '\(path)': \(reason)"
    }
}
