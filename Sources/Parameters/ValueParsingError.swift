/// Why display text could not be turned into a value.
public enum ValueParsingError: Error, Sendable, Hashable {
    /// The text is empty or only spaces.
    case empty
    /// The text does not start with a number (and is not a value string or an on/off word).
    case notANumber(String)
    /// The number is NaN.
    case nan
    /// The text after the number is not a unit suffix KnobLink knows.
    case unknownSuffix(String)
    /// The suffix belongs to another unit (`"-6 dB"` for a frequency).
    case suffixMismatch(suffix: String, unit: ParameterUnit)
    /// The implementor's value-from-string hook refused the text.
    case refusedByImplementor(String)
}

extension ValueParsingError: CustomStringConvertible {
    /// A one-line message.
    public var description: String {
        switch self {
        case .empty: "empty text"
        case .notANumber(let text): "'\(text)' is not a number"
        case .nan: "NaN is not a value"
        case .unknownSuffix(let suffix): "unknown unit '\(suffix)'"
        case .suffixMismatch(let suffix, let unit): "'\(suffix)' is not a unit of a \(unit.name) parameter"
        case .refusedByImplementor(let text): "'\(text)' refused by the parameter's parser"
        }
    }
}
