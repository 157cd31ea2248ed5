/// Why a WebSocket text frame is not an ``OSCQueryCommand``; ``description`` says it for a person.
public enum OSCQueryCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not JSON (or is over the parser's limits).
    case invalidJSON(OSCQueryJSONError)
    /// The JSON is not an object; `kind` is what it is (`an array`).
    case notAnObject(kind: String)
    /// The object has no `COMMAND` member.
    case missingCommand
    /// `COMMAND` is not a string.
    case commandNotAString(kind: String)
    /// `COMMAND` names no command the server knows.
    case unknownCommand(String)
    /// The command needs a `DATA` member and has none.
    case missingData(command: String)
    /// `DATA` is not what the command takes.
    case invalidData(command: String, reason: String)

    /// The reason, as a `/sys/error` or a log line would give it.
    public var description: String {
        switch self {
        case .invalidJSON(let error): "not JSON: \(error)"
        case .notAnObject(let kind): "a command is a JSON object, not \(kind)"
        case .missingCommand: "the object has no COMMAND"
        case .commandNotAString(let kind): "COMMAND is \(kind), not a string"
        case .unknownCommand(let name): "unknown command \"\(name)\" (LISTEN, IGNORE, START_OSC_STREAMING)"
        case .missingData(let command): "\(command) needs DATA"
        case .invalidData(let command, let reason): "\(command): \(reason)"
        }
    }
}
