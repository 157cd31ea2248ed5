/// A command a WebSocket client sends in a text frame (PROTOCOL.md section 7).
///
/// `{"COMMAND":"LISTEN","DATA":"/knob/gain"}`, `{"COMMAND":"IGNORE","DATA":"/knob/gain"}`, and
/// libossia's `{"COMMAND":"START_OSC_STREAMING","DATA":{"LOCAL_SERVER_PORT":p,"LOCAL_SENDER_PORT":q}}`.
/// Members other than `COMMAND` and `DATA` are ignored, as later revisions of a client may add some.
public enum OSCQueryCommand: Sendable, Hashable {
    /// Send the current value of `path` at once, then every change; a container's path covers
    /// every parameter below it (``OSCQueryNamespace/parameterIndices(listeningTo:)``).
    case listen(path: String)
    /// Stop what a ``listen(path:)`` of the same path started.
    case ignore(path: String)
    /// Send the listened values over UDP to the client's IP at `localServerPort` instead of the
    /// WebSocket. `localSenderPort` is the port the client sends from, when it says (libossia
    /// sends any integer there, so it is only kept when it is a port number).
    case startOSCStreaming(localServerPort: UInt16, localSenderPort: UInt16?)

    /// The parser for commands: 64 KiB and 8 levels are far more than any command needs.
    public static let parser = OSCQueryJSONParser(maximumSize: 65_536, maximumDepth: 8)

    /// Parses a text frame's content.
    /// - Throws: ``OSCQueryCommandError`` saying why the text is not a command.
    public init(text: String) throws(OSCQueryCommandError) {
        try self.init(utf8: Array(text.utf8))
    }

    /// Parses a text frame's bytes (UTF-8).
    /// - Throws: ``OSCQueryCommandError`` saying why the bytes are not a command.
    /// - Complexity: O(n) in the length of the text, which is at most 64 KiB.
    public init(utf8 bytes: some Collection<UInt8>) throws(OSCQueryCommandError) {
        let json: OSCQueryJSON
        do {
            json = try Self.parser.parse(bytes)
        } catch {
            throw .invalidJSON(error)
        }
        guard case .object = json else { throw .notAnObject(kind: json.kindName) }
        guard let command = json["COMMAND"] else { throw .missingCommand }
        guard let name = command.stringValue else { throw .commandNotAString(kind: command.kindName) }
        switch name {
        case "LISTEN": self = .listen(path: try Self.path(json["DATA"], command: name))
        case "IGNORE": self = .ignore(path: try Self.path(json["DATA"], command: name))
        case "START_OSC_STREAMING": self = try Self.streaming(json["DATA"])
        default: throw .unknownCommand(name)
        }
    }

    private static func path(_ data: OSCQueryJSON?, command: String) throws(OSCQueryCommandError) -> String {
        guard let data else { throw .missingData(command: command) }
        guard let path = data.stringValue else {
            throw .invalidData(command: command, reason: "DATA is \(data.kindName), not a path string")
        }
        guard path.hasPrefix("/") else {
            throw .invalidData(command: command, reason: "the path \"\(path)\" does not start with /")
        }
        return path
    }

    private static func streaming(_ data: OSCQueryJSON?) throws(OSCQueryCommandError) -> OSCQueryCommand {
        let command = "START_OSC_STREAMING"
        guard let data else { throw .missingData(command: command) }
        guard case .object = data else {
            throw .invalidData(command: command, reason: "DATA is \(data.kindName), not an object")
        }
        guard let server = data["LOCAL_SERVER_PORT"] else {
            throw .invalidData(command: command, reason: "DATA has no LOCAL_SERVER_PORT")
        }
        guard let number = server.integerValue, let port = UInt16(exactly: number), port != 0 else {
            throw .invalidData(command: command, reason: "LOCAL_SERVER_PORT \(server.text) is not a port (1…65535)")
        }
        let sender = data["LOCAL_SENDER_PORT"]?.integerValue.flatMap { UInt16(exactly: $0) }
        return .startOSCStreaming(localServerPort: port, localSenderPort: sender)
    }
}
