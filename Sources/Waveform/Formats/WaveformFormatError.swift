/// Why a `.dat` or `.json` file could not be read as audiowaveform data.
///
/// Offsets are in bytes from the start of the input (in UTF-8 for `.json`).
public enum WaveformFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ends inside the header: `needed` bytes are required, `available` were given.
    case truncatedHeader(needed: Int, available: Int)
    /// The version is neither 1 nor 2.
    case unsupportedVersion(Int, offset: Int)
    /// Flag bits other than bit 0 (8-bit) are set.
    case unknownFlags(UInt32, offset: Int)
    /// A header field is out of range (`field` is audiowaveform's name for it).
    case invalidField(field: String, value: Int, offset: Int)
    /// The data after the header is not `length × channels × 2` values of the declared size.
    case dataSizeMismatch(expectedBytes: Int, availableBytes: Int, offset: Int)
    /// The `.json` text is not the JSON that audiowaveform writes.
    case syntax(expected: String, offset: Int)
    /// A required `.json` key is absent.
    case missingField(String)
    /// A `.json` key appears twice or is not one of audiowaveform's.
    case unexpectedField(String, offset: Int)
    /// A value in `data` does not fit the declared bits.
    case sampleOutOfRange(value: Int, offset: Int)
    /// `data` holds a different number of values than `length × channels × 2`.
    case sampleCountMismatch(expected: Int, found: Int)

    /// A sentence naming the problem and where it is.
    public var description: String {
        switch self {
        case .truncatedHeader(let needed, let available):
            "truncated header: \(needed) bytes needed, \(available) available"
        case .unsupportedVersion(let version, let offset):
            "unsupported version \(version) at offset \(offset)"
        case .unknownFlags(let flags, let offset):
            "unknown flags 0x\(String(flags, radix: 16)) at offset \(offset)"
        case .invalidField(let field, let value, let offset):
            "invalid \(field) \(value) at offset \(offset)"
        case .dataSizeMismatch(let expected, let available, let offset):
            "data at offset \(offset) should be \(expected) bytes, found \(available)"
        case .syntax(let expected, let offset):
            "expected \(expected) at offset \(offset)"
        case .missingField(let field):
            "missing field \"\(field)\""
        case .unexpectedField(let field, let offset):
            "unexpected field \"\(field)\" at offset \(offset)"
        case .sampleOutOfRange(let value, let offset):
            "sample \(value) out of range at offset \(offset)"
        case .sampleCountMismatch(let expected, let found):
            "data should hold \(expected) values, found \(found)"
        }
    }
}
