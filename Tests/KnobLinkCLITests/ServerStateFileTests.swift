import Foundation
import OSCCore
import Testing

/// `--state FILE` (issue 4): values survive a restart, a clean shutdown writes them, and `kill -9`
/// in the middle of a burst leaves a valid file holding a value that was set.
@Suite(.serialized, .offThePool) struct ServerStateFileTests {
    static func query(_ server: ServeProcess, _ address: String) throws -> Double? {
        let peer = try UDPTestPeer(server: server.port)
        return peer.request(address)?.number
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func cleanShutdownWritesTheState(signal: Int32) throws {
        let scratch = try Scratch()
        let state = scratch.path("state.json")
        let server = try ServeProcess(["--feedback-port", "auto", "--state", state])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/knob/gain", 0.375)
        peer.send("/knob/frequency/raw", 1000)
        peer.send("/toggle/monophonic", 1)
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/gain")?.number, 0.375))
        #expect((signal == SIGTERM ? server.terminate() : server.interrupt()) == 0)
        let data = try #require(FileManager.default.contents(atPath: state), "no state file")
        #expect(
            (try? JSONSerialization.jsonObject(with: data)) != nil, "not JSON: \(String(decoding: data, as: UTF8.self))"
        )

        let again = try ServeProcess(["--feedback-port", "auto", "--state", state])
        #expect(ServerEchoRuleTests.isClose(try Self.query(again, "/knob/gain"), 0.375))
        #expect(try Self.query(again, "/knob/frequency/raw").map { abs($0 - 1000) < 0.01 } == true)
        #expect(try Self.query(again, "/toggle/monophonic") == 1)
        #expect(again.terminate() == 0)
    }

    @Test func killDuringABurstLeavesAValidFileWithAValueThatWasSet() throws {
        let scratch = try Scratch()
        let state = scratch.path("state.json")
        let server = try ServeProcess(["--feedback-port", "auto", "--state", state, "--rate-limit", "1000000"])
        let peer = try UDPTestPeer(server: server.port)
        let count = 4000
        let sent = (0..<count).map { Float($0 + 1) / Float(count * 2) }
        let start = ContinuousClock.now
        for (index, value) in sent.enumerated() {
            peer.send("/knob/gain", value)
            if index.isMultiple(of: 20) { Thread.sleep(forTimeInterval: 0.001) }
            // Half-way, and at least one write interval in: no shutdown handler runs.
            if index == count / 2 {
                let due = start + .milliseconds(600)
                if ContinuousClock.now < due { Thread.sleep(forTimeInterval: (due - ContinuousClock.now).seconds) }
                server.kill9()
            }
        }
        #expect(!server.isRunning)
        let data = try #require(FileManager.default.contents(atPath: state), "no state file after kill -9")
        #expect(
            (try? JSONSerialization.jsonObject(with: data)) != nil, "not JSON: \(String(decoding: data, as: UTF8.self))"
        )

        let again = try ServeProcess(["--feedback-port", "auto", "--state", state])
        let value = try #require(try Self.query(again, "/knob/gain"))
        #expect(sent.contains { abs(Double($0) - value) < 1e-6 }, "\(value) was never set")
        #expect(again.terminate() == 0)
    }

    /// A state file that is not a state file: the server reports it and starts with the defaults,
    /// or refuses with a message; it never crashes.
    @Test func brokenStateFileIsReportedNotFatal() throws {
        let scratch = try Scratch()
        let state = try scratch.write("state.json", "{\"format\": \"knoblink-preset\", \"values\": {\"knob.gain\": ")
        let process = try RunningProcess(
            Tool.knoblink, ["serve", "--port", "0", "--feedback-port", "auto", "--state", state])
        let ready = process.wait(timeout: .seconds(20)) {
            $0.stderr.contains("Listening on UDP and TCP port") || !$0.isRunning
        }
        #expect(ready)
        if process.isRunning {
            let port = try #require(
                process.stderr.split(separator: "\n").first { $0.contains("Listening") }
                    .flatMap { UInt16($0.split(separator: " ").last ?? "") })
            let peer = try UDPTestPeer(server: port)
            #expect(ServerEchoRuleTests.isClose(peer.request("/knob/gain")?.number, 60.0 / 72))
            #expect(process.terminate() == 0)
        } else {
            #expect(process.waitForExit() == 1)
            #expect(process.stderr.hasPrefix("Error:"))
        }
    }

    /// Issue 9, item 9: a corrupt state file is renamed aside, with a message saying where, and
    /// the first change no longer overwrites its values.
    @Test func corruptStateFileIsKeptAsideAndSaidSo() throws {
        let scratch = try Scratch()
        let corrupt = "{\"format\": \"knoblink-preset\", \"values\": {\"knob.gain\": 0.125, "
        let state = try scratch.write("state.json", corrupt)
        let server = try ServeProcess(["--feedback-port", "auto", "--state", state])
        let peer = try UDPTestPeer(server: server.port)
        peer.send("/knob/gain", 0.625)
        #expect(ServerEchoRuleTests.isClose(peer.request("/knob/gain")?.number, 0.625))
        #expect(server.terminate() == 0)

        let kept = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)
            .filter { $0.hasPrefix("state.json.corrupt-") }
        #expect(kept.count == 1, "files: \(kept)")
        let keptPath = scratch.path(kept.first ?? "none")
        #expect(FileManager.default.contents(atPath: keptPath).map { String(decoding: $0, as: UTF8.self) } == corrupt)
        #expect(server.stderr.contains("kept as '\(keptPath)'"), "stderr: \(server.stderr)")
        // The new file holds the new value.
        let again = try ServeProcess(["--feedback-port", "auto", "--state", state])
        #expect(ServerEchoRuleTests.isClose(try Self.query(again, "/knob/gain"), 0.625))
        #expect(again.terminate() == 0)
    }

    /// Issue 9, item 9: the temporaries a `kill -9` leaves beside the state file are removed when
    /// the next server starts; other files stay.
    @Test func staleTemporariesAreRemovedAtStart() throws {
        let scratch = try Scratch()
        let state = scratch.path("state.json")
        let stale = (0..<2).map { _ in ".state.json.\(UUID().uuidString).tmp" }
        let others = [".state.json.not-a-uuid.tmp", ".other.json.\(UUID().uuidString).tmp", "notes.tmp"]
        for name in stale + others { try scratch.write(name, "{\"format\": \"knoblink-pre") }
        let server = try ServeProcess(["--feedback-port", "auto", "--state", state])
        #expect(try Self.query(server, "/knob/gain") != nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)
        #expect(Set(left).isDisjoint(with: stale), "left: \(left)")
        #expect(Set(others).isSubset(of: Set(left)), "left: \(left)")
        #expect(server.terminate() == 0)
    }
}
