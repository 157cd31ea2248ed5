/// One entry of a preset that was not applied.
public struct PresetIssue: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the entry.
    public enum Kind: Sendable, Hashable {
        /// No parameter of the tree has this key path.
        case unknownKeyPath
        /// The value lies outside the parameter's range (or is not finite).
        case outOfRange(value: ParameterValue, min: ParameterValue, max: ParameterValue)
        /// The entry's JSON value is not a number.
        case notANumber(found: String)
        /// The parameter has the `omitFromPresets` flag.
        case omittedFromPresets
    }

    /// The entry's key path.
    public var keyPath: String
    /// What is wrong.
    public var kind: Kind

    /// Creates an issue.
    public init(keyPath: String, kind: Kind) {
        self.keyPath = keyPath
        self.kind = kind
    }

    /// `'amp.sustain': 120 outside 0…100`, and so on.
    public var description: String {
        switch kind {
        case .unknownKeyPath: "'\(keyPath)': no such parameter"
        case .outOfRange(let value, let min, let max): "'\(keyPath)': \(value) outside \(min)…\(max)"
        case .notANumber(let found): "'\(keyPath)': expected a number, found \(found)"
        case .omittedFromPresets: "'\(keyPath)': the parameter is omitted from presets"
        }
    }
}
