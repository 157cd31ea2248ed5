import OSCQuery
import Testing

@Suite struct OSCQueryCommandTests {
    @Test(arguments: [
        (#"{"COMMAND":"LISTEN","DATA":"/knob/gain"}"#, OSCQueryCommand.listen(path: "/knob/gain")),
        (#" { "DATA" : "/" , "COMMAND" : "LISTEN" } "#, .listen(path: "/")),
        (#"{"COMMAND":"IGNORE","DATA":"/knob"}"#, .ignore(path: "/knob")),
        (
            #"{"COMMAND":"START_OSC_STREAMING","DATA":{"LOCAL_SERVER_PORT":9001,"LOCAL_SENDER_PORT":9002}}"#,
            .startOSCStreaming(localServerPort: 9001, localSenderPort: 9002)
        ),
        (
            #"{"COMMAND":"START_OSC_STREAMING","DATA":{"LOCAL_SERVER_PORT":9001.0,"LOCAL_SENDER_PORT":1804289383}}"#,
            .startOSCStreaming(localServerPort: 9001, localSenderPort: nil)
        ),
        (
            #"{"COMMAND":"START_OSC_STREAMING","DATA":{"LOCAL_SERVER_PORT":65535}}"#,
            .startOSCStreaming(localServerPort: 65535, localSenderPort: nil)
        ),
        (#"{"COMMAND":"LISTEN","DATA":"/x","EXTRA":[1,2]}"#, .listen(path: "/x")),
        (#"{"COMMAND":"LISTEN","DATA":"/caf\u00e9"}"#, .listen(path: "/café")),
    ])
    func parsesCommands(text: String, command: OSCQueryCommand) throws {
        #expect(try OSCQueryCommand(text: text) == command)
    }

    @Test(arguments: [
        ("", OSCQueryCommandError.invalidJSON(.unexpectedEnd(offset: 0))),
        ("{\"COMMAND\":\"LISTEN\",", .invalidJSON(.unexpectedEnd(offset: 20))),
        ("[\"LISTEN\"]", .notAnObject(kind: "an array")), ("\"LISTEN\"", .notAnObject(kind: "a string")),
        ("{\"DATA\":\"/x\"}", .missingCommand), ("{\"COMMAND\":1}", .commandNotAString(kind: "a number")),
        ("{\"COMMAND\":\"listen\",\"DATA\":\"/x\"}", .unknownCommand("listen")),
        ("{\"COMMAND\":\"PATH_ADDED\",\"DATA\":\"/x\"}", .unknownCommand("PATH_ADDED")),
        ("{\"COMMAND\":\"LISTEN\"}", .missingData(command: "LISTEN")),
        (
            "{\"COMMAND\":\"IGNORE\",\"DATA\":[\"/x\"]}",
            .invalidData(command: "IGNORE", reason: "DATA is an array, not a path string")
        ),
        (
            "{\"COMMAND\":\"LISTEN\",\"DATA\":\"knob/gain\"}",
            .invalidData(command: "LISTEN", reason: "the path \"knob/gain\" does not start with /")
        ),
        ("{\"COMMAND\":\"START_OSC_STREAMING\"}", .missingData(command: "START_OSC_STREAMING")),
        (
            "{\"COMMAND\":\"START_OSC_STREAMING\",\"DATA\":9000}",
            .invalidData(command: "START_OSC_STREAMING", reason: "DATA is a number, not an object")
        ),
        (
            "{\"COMMAND\":\"START_OSC_STREAMING\",\"DATA\":{}}",
            .invalidData(command: "START_OSC_STREAMING", reason: "DATA has no LOCAL_SERVER_PORT")
        ),
        ("{\"COMMAND\":\"LISTEN\",\"COMMAND\":\"IGNORE\"}", .invalidJSON(.duplicateKey("COMMAND", offset: 20))),
    ])
    func refusesWithATypedReason(text: String, error: OSCQueryCommandError) {
        #expect(throws: error) { try OSCQueryCommand(text: text) }
    }

    @Test(arguments: ["70000", "0", "-1", "\"9000\"", "9000.5", "null"])
    func refusesAServerPortThatIsNotAPort(port: String) {
        let text = "{\"COMMAND\":\"START_OSC_STREAMING\",\"DATA\":{\"LOCAL_SERVER_PORT\":\(port)}}"
        let reason = "LOCAL_SERVER_PORT \(port) is not a port (1…65535)"
        #expect(throws: OSCQueryCommandError.invalidData(command: "START_OSC_STREAMING", reason: reason)) {
            try OSCQueryCommand(text: text)
        }
    }

    @Test func refusesDeepAndHugeTexts() {
        let deep =
            "{\"COMMAND\":\"LISTEN\",\"DATA\":" + String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
            + "}"
        #expect(throws: OSCQueryCommandError.invalidJSON(.tooDeep(offset: 34, limit: 8))) {
            try OSCQueryCommand(text: deep)
        }
        let huge = "{\"COMMAND\":\"LISTEN\",\"DATA\":\"/" + String(repeating: "a", count: 70_000) + "\"}"
        #expect(throws: OSCQueryCommandError.invalidJSON(.tooLarge(size: huge.utf8.count, limit: 65_536))) {
            try OSCQueryCommand(text: huge)
        }
    }

    @Test func reasonsReadClearly() {
        #expect(
            OSCQueryCommandError.unknownCommand("FOO").description
                == "unknown command \"FOO\" (LISTEN, IGNORE, START_OSC_STREAMING)")
        #expect(
            OSCQueryCommandError.invalidJSON(.unexpectedByte(UInt8(ascii: "x"), offset: 3)).description
                == "not JSON: unexpected 'x' at offset 3")
        #expect(OSCQueryCommandError.missingData(command: "LISTEN").description == "LISTEN needs DATA")
    }
}
