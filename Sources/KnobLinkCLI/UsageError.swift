/// A command line that cannot be run as written; the tool prints it with the usage and exits 64.
enum UsageError: Error, Sendable, Equatable {
    case unknownOption(String)
    case missingValue(option: String)
    case unexpectedValue(option: String)
    case missingArgument(String)
    case unexpectedArgument(String)
    case invalidValue(String, for: String, reason: String?)
    case unknownSubcommand(String)
    /// A value of a message that does not parse as its type tag says; `position` counts from 1.
    case invalidMessageValue(String, type: Character, position: Int, expected: String)
    /// A type tag that needs a value that is not there.
    case missingMessageValue(type: Character, position: Int)
    /// A type tag that `send` cannot write.
    case unsupportedType(Character)
    case other(String)

    /// The text after `Error: `, in swift-argument-parser's words where it has one.
    var message: String {
        switch self {
        case .unknownOption(let option): "Unknown option '\(option)'"
        case .missingValue(let option): "Missing value for '\(option)'"
        case .unexpectedValue(let option): "The option '\(option)' does not take a value"
        case .missingArgument(let argument): "Missing expected argument '\(argument)'"
        case .unexpectedArgument(let argument): "Unexpected argument '\(argument)'"
        case .invalidValue(let value, let name, let reason):
            "The value '\(value)' is invalid for '\(name)'" + (reason.map { ": \($0)" } ?? "")
        case .unknownSubcommand(let name): "Unknown subcommand '\(name)'"
        case .invalidMessageValue(let value, let type, let position, let expected):
            "The value '\(value)' is invalid for type '\(type)' (value #\(position)): expected \(expected)"
        case .missingMessageValue(let type, let position): "Missing value #\(position) for type '\(type)'"
        case .unsupportedType(let type):
            "Type '\(type)' is not supported (supported: \(MessageValueParser.supportedTypes))"
        case .other(let text): text
        }
    }
}
