/// Why a tree (from specs or from a file) was refused. Each case names the node by its key path
/// (`""` for the top level) and, where it applies, the field.
public enum ParameterTreeError: Error, Sendable, Hashable {
    /// The file is larger than the limit.
    case fileTooLarge(bytes: Int, limit: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The text is not JSON; `offset` is the byte where parsing stopped.
    case invalidJSON(offset: Int, reason: String)
    /// The file's `format` or `version` is not one this library reads.
    case unsupportedFormat(String)
    /// A required field is absent.
    case missingField(keyPath: String, field: String)
    /// A field has the wrong JSON type (`expected` names the type).
    case wrongType(keyPath: String, field: String, expected: String)
    /// A field that this format does not have.
    case unknownField(keyPath: String, field: String)
    /// A field's value is not allowed (an unknown unit, flag or taper name, a number out of range…).
    case invalidValue(keyPath: String, field: String, reason: String)
    /// An identifier that does not match `[A-Za-z0-9_-]+` (or is longer than 64 characters).
    case invalidIdentifier(keyPath: String, identifier: String)
    /// An identifier that PROTOCOL.md §2 reserves.
    case reservedIdentifier(keyPath: String, identifier: String)
    /// Two siblings share an identifier.
    case duplicateIdentifier(keyPath: String)
    /// Two parameters share an address.
    case duplicateAddress(keyPath: String, address: ParameterAddress, otherKeyPath: String)
    /// `min > max`, or a bound that is not finite.
    case invalidRange(keyPath: String, min: Double, max: Double)
    /// The default value lies outside `min…max` or is not finite.
    case defaultOutOfRange(keyPath: String, defaultValue: Double)
    /// Groups nested deeper than the limit.
    case tooDeep(keyPath: String, limit: Int)
    /// More nodes (or value strings, or characters in a string) than the limit.
    case tooMany(keyPath: String, field: String, limit: Int)
}

extension ParameterTreeError: CustomStringConvertible {
    /// A one-line message naming the node and the field.
    public var description: String {
        func node(_ keyPath: String) -> String { keyPath.isEmpty ? "the top level" : "'\(keyPath)'" }
        switch self {
        case .fileTooLarge(let bytes, let limit): return "tree file too large: \(bytes) bytes (limit \(limit))"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .invalidJSON(let offset, let reason): return "invalid JSON at byte \(offset): \(reason)"
        case .unsupportedFormat(let text): return "unsupported tree file: \(text)"
        case .missingField(let keyPath, let field): return "\(node(keyPath)): missing field '\(field)'"
        case .wrongType(let keyPath, let field, let expected):
            return "\(node(keyPath)): field '\(field)' must be \(expected)"
        case .unknownField(let keyPath, let field): return "\(node(keyPath)): unknown field '\(field)'"
        case .invalidValue(let keyPath, let field, let reason): return "\(node(keyPath)): field '\(field)': \(reason)"
        case .invalidIdentifier(let keyPath, let identifier):
            return "\(node(keyPath)): invalid identifier '\(identifier)' (allowed: A-Z a-z 0-9 _ -, 1 to 64)"
        case .reservedIdentifier(let keyPath, let identifier):
            return "\(node(keyPath)): identifier '\(identifier)' is reserved"
        case .duplicateIdentifier(let keyPath): return "\(node(keyPath)): identifier used twice among siblings"
        case .duplicateAddress(let keyPath, let address, let other):
            return "\(node(keyPath)): address \(address) already used by '\(other)'"
        case .invalidRange(let keyPath, let min, let max): return "\(node(keyPath)): invalid range \(min)…\(max)"
        case .defaultOutOfRange(let keyPath, let value): return "\(node(keyPath)): default \(value) outside the range"
        case .tooDeep(let keyPath, let limit): return "\(node(keyPath)): groups nested deeper than \(limit)"
        case .tooMany(let keyPath, let field, let limit): return "\(node(keyPath)): more than \(limit) \(field)"
        }
    }
}
