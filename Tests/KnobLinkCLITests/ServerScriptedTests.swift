import Foundation
import Parameters
import Testing

/// `knoblink serve` driven with liblo's `oscsend` and watched with `oscdump`, exactly as a user
/// would from a shell: `oscsend` cannot listen, so replies go to the feedback port, where an
/// `oscdump` listens (PROTOCOL.md 1), or to the url given to `get` and `/sys/subscribe`.
@Suite(.serialized, .offThePool) struct ServerScriptedTests {
    /// A server whose feedback port is an `oscdump`'s, so that replies to `oscsend` show up there.
    struct Session {
        let server: ServeProcess
        let feedback: RunningProcess
        let feedbackPort: UInt16

        init(_ arguments: [String] = []) throws {
            (feedback, feedbackPort) = try Peers.oscdump()
            server = try ServeProcess(["--feedback-port", "\(feedbackPort)"] + arguments)
        }

        func oscsend(_ address: String, _ types: String = "", _ values: String...) throws {
            let arguments = ["127.0.0.1", "\(server.port)", address] + (types.isEmpty ? [] : [types] + values)
            let result = try Tool.run(Tool.system("oscsend"), arguments)
            try #require(result.status == 0, "oscsend \(arguments): \(result.stderr)")
        }

        /// Waits until the feedback dump has printed `line` (without its time tag) `count` times.
        @discardableResult
        func expectLine(_ line: String, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
            ServerScriptedTests.expectLine(line, in: feedback, count: count, sourceLocation: sourceLocation)
        }

        /// How many times the feedback dump printed `line` so far.
        func count(_ line: String) -> Int {
            Peers.withoutTimeTags(feedback.stdout).count { $0 == line }
        }

        func stop() {
            feedback.stop()
            #expect(server.terminate() == 0)
        }
    }

    @discardableResult
    static func expectLine(
        _ line: String, in dump: RunningProcess, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let seen = dump.wait(timeout: .seconds(5)) { Peers.withoutTimeTags($0.stdout).count { $0 == line } >= count }
        #expect(seen, "no \(count)× `\(line)` in:\n\(dump.stdout)", sourceLocation: sourceLocation)
        return seen
    }

    @Test func setAndQueryTheNormalisedValue() throws {
        let session = try Session()
        try session.oscsend("/knob/gain", "f", "0.75")
        try session.oscsend("/knob/gain")
        session.expectLine("/knob/gain f 0.750000")
        // -6 dB on -60…12 dB is 0.75.
        try session.oscsend("/knob/gain/raw")
        session.expectLine("/knob/gain/raw f -6.000000")
        try session.oscsend("/knob/gain/str")
        session.expectLine(#"/knob/gain/str s "-6 dB""#)
        session.stop()
    }

    @Test func setInRawUnitsAndFromDisplayText() throws {
        let session = try Session()
        try session.oscsend("/knob/gain/raw", "f", "-12")
        try session.oscsend("/knob/gain")
        session.expectLine("/knob/gain f 0.666667")
        try session.oscsend("/knob/frequency/str", "s", "1.2kHz")
        try session.oscsend("/knob/frequency/raw")
        session.expectLine("/knob/frequency/raw f 1200.000000")
        try session.oscsend("/knob/frequency/str")
        session.expectLine(#"/knob/frequency/str s "1.2kHz""#)
        // Integers and booleans are numbers too (PROTOCOL.md 2).
        try session.oscsend("/toggle/monophonic", "T")
        try session.oscsend("/toggle/monophonic")
        session.expectLine("/toggle/monophonic f 1.000000")
        try session.oscsend("/knob/pan", "i", "0")
        try session.oscsend("/knob/pan")
        session.expectLine("/knob/pan f 0.000000")
        session.stop()
    }

    @Test func clampedAndSteppedValuesAreCorrected() throws {
        let session = try Session()
        try session.oscsend("/knob/gain", "f", "1.5")
        session.expectLine("/knob/gain f 1.000000")
        try session.oscsend("/toggle/retrigger", "f", "0.7")
        session.expectLine("/toggle/retrigger f 1.000000")
        try session.oscsend("/knob/gain/raw", "f", "40")
        session.expectLine("/knob/gain/raw f 12.000000")
        session.stop()
    }

    @Test func getAndInfoAnswerTheUrlGiven() throws {
        let session = try Session()
        let (other, otherPort) = try Peers.oscdump()
        defer { other.stop() }
        let url = "osc.udp://127.0.0.1:\(otherPort)/"
        try session.oscsend("/knob/gain/get", "s", url)
        Self.expectLine("/knob/gain f 0.833333", in: other)
        try session.oscsend("/knob/gain/info", "s", url)
        Self.expectLine(
            #"/knob/gain/info ssfffsi "Gain" "dB" -60.000000 12.000000 0.000000 "linear" \#(Self.gainFlags)"#,
            in: other)
        try session.oscsend("/sys/ping", "s", url)
        #expect(other.wait { $0.stdout.contains("/sys/pong ss \"\(session.server.name)\" \"") })
        session.stop()
    }

    /// The gain's AudioUnit option bits, sent as an int32 with the same bit pattern (9.4).
    static let gainFlags = Int32(bitPattern: ParameterFlags([.readable, .writable, .canRamp]).rawValue)

    @Test func subscriberSeesTheCurrentValuesThenEveryChange() throws {
        let session = try Session()
        let (subscriber, subscriberPort) = try Peers.oscdump()
        defer { subscriber.stop() }
        try session.oscsend("/sys/subscribe", "s", "osc.udp://127.0.0.1:\(subscriberPort)/")
        Self.expectLine("/sys/update i 1", in: subscriber)
        Self.expectLine("/sys/update i 0", in: subscriber)
        let initial = Peers.withoutTimeTags(subscriber.stdout)
        #expect(initial.first == "/sys/update i 1" && initial.last == "/sys/update i 0")
        #expect(initial.contains("/knob/gain f 0.833333"))
        // Every parameter of the default tree: knob 3, toggle 2, amp 6, mod 6.
        #expect(initial.count == 17 + 2, "\(initial)")
        try session.oscsend("/knob/pan", "f", "0.25")
        Self.expectLine("/knob/pan f 0.250000", in: subscriber)
        try session.oscsend("/knob/pan/raw", "f", "25")
        Self.expectLine("/knob/pan f 0.750000", in: subscriber)
        // An unchanged value is not sent again (E3).
        try session.oscsend("/knob/pan", "f", "0.75")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Peers.withoutTimeTags(subscriber.stdout).count { $0 == "/knob/pan f 0.750000" } == 1)
        try session.oscsend("/sys/unsubscribe", "s", "osc.udp://127.0.0.1:\(subscriberPort)/")
        Thread.sleep(forTimeInterval: 0.2)
        let beforeUnsubscribe = Peers.lines(subscriber.stdout).count
        try session.oscsend("/knob/pan", "f", "0.5")
        try session.oscsend("/knob/pan")
        session.expectLine("/knob/pan f 0.500000")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Peers.lines(subscriber.stdout).count == beforeUnsubscribe, "changes after unsubscribing")
        session.stop()
    }

    @Test func presetsAreSavedLoadedListedAndDeleted() throws {
        let scratch = try Scratch()
        let presets = try scratch.subdirectory("presets")
        let session = try Session(["--presets", presets])
        let (subscriber, subscriberPort) = try Peers.oscdump()
        defer { subscriber.stop() }
        try session.oscsend("/knob/gain", "f", "0.75")
        try session.oscsend("/knob/pan", "f", "0.1")
        try session.oscsend("/sys/preset/save", "s", "Live set 1")
        #expect(
            session.feedback.wait { _ in FileManager.default.fileExists(atPath: presets + "/Live set 1.json") },
            "\((try? FileManager.default.contentsOfDirectory(atPath: presets)) ?? [])")
        try session.oscsend("/knob/gain", "f", "0.25")
        try session.oscsend("/sys/subscribe", "s", "osc.udp://127.0.0.1:\(subscriberPort)/")
        Self.expectLine("/sys/update i 0", in: subscriber)
        let echoes = session.count("/knob/gain f 0.750000")
        try session.oscsend("/sys/preset/load", "s", "Live set 1")
        // A load is echoed to every subscriber, the requester included (PROTOCOL.md 9.15).
        Self.expectLine("/knob/gain f 0.750000", in: subscriber)
        session.expectLine("/knob/gain f 0.750000", count: echoes + 1)
        try session.oscsend("/knob/pan")
        session.expectLine("/knob/pan f 0.100000")

        try session.oscsend("/sys/preset/save", "s", "other")
        let brackets = session.count("/sys/update i 0")
        try session.oscsend("/sys/preset/list")
        session.expectLine("/sys/update i 0", count: brackets + 1)
        let list = Peers.withoutTimeTags(session.feedback.stdout).filter { $0.hasPrefix("/sys/preset ") }
        #expect(Set(list) == [#"/sys/preset s "Live set 1""#, #"/sys/preset s "other""#])

        try session.oscsend("/sys/preset/delete", "s", "Live set 1")
        #expect(session.feedback.wait { _ in !FileManager.default.fileExists(atPath: presets + "/Live set 1.json") })
        try session.oscsend("/sys/preset/list", "s", "osc.udp://127.0.0.1:\(subscriberPort)/")
        #expect(subscriber.wait { Peers.withoutTimeTags($0.stdout).contains(#"/sys/preset s "other""#) })
        #expect(!Peers.withoutTimeTags(subscriber.stdout).contains(#"/sys/preset s "Live set 1""#))
        try session.oscsend("/sys/preset/load", "s", "Live set 1")
        #expect(session.feedback.wait { $0.stdout.contains(#"/sys/error ss "/sys/preset/load" "#) })
        session.stop()
    }

    /// Each refused message gets `/sys/error s address s reason`, at most one a second (9.2), so
    /// the cases are a second apart; the value stays as it was and no correction is sent.
    @Test func refusedMessagesAreAnsweredWithErrors() throws {
        let session = try Session()
        try session.oscsend("/knob/gain", "f", "0.75")
        let cases: [(address: String, types: String, values: [String])] = [
            ("/knob/nope", "f", ["1"]),
            ("/knob/gain", "s", ["loud"]),
            ("/knob/gain/str", "s", ["very loud"]),
            ("/knob/gain", "f", ["nan"]),
            ("/nope", "", []),
        ]
        for (index, item) in cases.enumerated() {
            Thread.sleep(forTimeInterval: 1.1)
            let arguments = ["127.0.0.1", "\(session.server.port)", item.address] + [item.types] + item.values
            _ = try Tool.run(Tool.system("oscsend"), arguments.filter { !$0.isEmpty })
            let seen = session.feedback.wait {
                Peers.withoutTimeTags($0.stdout).count { $0.hasPrefix("/sys/error ss ") } > index
            }
            #expect(seen, "no /sys/error for \(item)")
            let errors = Peers.withoutTimeTags(session.feedback.stdout).filter { $0.hasPrefix("/sys/error ss ") }
            #expect(errors.last?.hasPrefix(#"/sys/error ss "\#(item.address)" ""#) == true, "\(errors)")
        }
        try session.oscsend("/knob/gain")
        session.expectLine("/knob/gain f 0.750000")
        let gains = Peers.withoutTimeTags(session.feedback.stdout).filter { $0.hasPrefix("/knob/gain f ") }
        #expect(gains.allSatisfy { $0 == "/knob/gain f 0.750000" }, "a refused value was echoed: \(gains)")
        session.stop()
    }
}
