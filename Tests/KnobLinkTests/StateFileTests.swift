import Foundation
import Locking
import Parameters
import Synchronization
import Testing

@testable import KnobLink

@Suite struct StateFileTests {
    /// A fresh directory, removed when the test ends.
    final class Directory: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var statePath: String { url.appendingPathComponent("state.json").path }
        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
    }

    /// Polls `condition` every 10 ms for up to `seconds`.
    static func eventually(within seconds: Double = 10, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func valuesSurviveARestart() throws {
        let directory = Directory()
        let tree = ParameterTree.makeDefault()
        let file = StateFile(path: directory.statePath, tree: tree)
        #expect(try file.load() == nil)
        file.start()
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-7.5)
        tree.parameter(forKeyPath: "toggle.monophonic")!.setValue(1)
        try file.stop()

        let restarted = ParameterTree.makeDefault()
        let report = try #require(try StateFile(path: directory.statePath, tree: restarted).load())
        #expect(report.isComplete)
        #expect(restarted.snapshotValues() == tree.snapshotValues())
        #expect(restarted.parameter(forKeyPath: "knob.gain")!.value == -7.5)
        #expect(try directory.files() == ["state.json"])
    }

    @Test func burstsAreCoalesced() async throws {
        let directory = Directory()
        let tree = ParameterTree.makeDefault()
        let file = StateFile(path: directory.statePath, tree: tree, minimumInterval: 0.2)
        file.start()
        let gain = tree.parameter(forKeyPath: "knob.gain")!
        let started = Date()
        var value: Float = -60
        while Date().timeIntervalSince(started) < 0.6 {
            for _ in 0..<100 {
                value = value >= 12 ? -60 : value + 0.5
                gain.setValue(value)
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        let elapsed = Date().timeIntervalSince(started)
        // The last value reaches the file without another change to push it.
        let final = value
        let written = try await Self.eventually {
            (try? ParameterPreset(contentsOf: URL(fileURLWithPath: directory.statePath)))?.values["knob.gain"] == final
        }
        #expect(written)
        // Thousands of changes; at most one write per interval (plus the first one at once). How many
        // intervals the writer saw depends on scheduling on a loaded machine, so only the bound is
        // asserted: a loaded CI run once saw a single write, which held the final value.
        #expect(file.writeCount <= Int(elapsed / 0.2) + 3)
        try file.stop()
    }

    @Test func fileIsAlwaysWholeDuringABurst() async throws {
        let directory = Directory()
        let tree = ParameterTree.makeDefault()
        let file = StateFile(path: directory.statePath, tree: tree, minimumInterval: 0)
        file.start()
        try file.flush()
        let stop = Atomic<Bool>(false)
        let reads = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let path = directory.statePath
        let reader = Thread {
            while !stop.load(ordering: .relaxed) {
                do {
                    _ = try ParameterPreset(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
                reads.add(1, ordering: .relaxed)
            }
        }
        reader.start()
        let gain = tree.parameter(forKeyPath: "knob.gain")!
        for step in 0..<3000 {
            gain.setValue(Float(step % 70) - 60)
            if step % 100 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        _ = try await Self.eventually { reads.load(ordering: .relaxed) > 50 && file.writeCount > 5 }
        stop.store(true, ordering: .relaxed)
        try file.stop()
        #expect(file.writeCount > 5)
        #expect(reads.load(ordering: .relaxed) > 50)
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(try directory.files() == ["state.json"])
    }

    @Test(arguments: [
        "",
        "{",
        "[1, 2]",
        "{\"format\": \"knoblink-preset\", \"version\": 2, \"values\": {}}",
        "\u{0}\u{1}\u{2} binary",
    ])
    func brokenFileIsReportedAndIgnored(text: String) throws {
        let directory = Directory()
        _ = FileManager.default.createFile(atPath: directory.statePath, contents: Data(text.utf8))
        let tree = ParameterTree.makeDefault()
        let before = tree.snapshotValues()
        let file = StateFile(path: directory.statePath, tree: tree)
        #expect(throws: StateFileError.self) { try file.load() }
        #expect(tree.snapshotValues() == before)
        // Running on writes a good file; the broken one is kept beside it, unchanged.
        try file.stop()
        #expect(try StateFile(path: directory.statePath, tree: ParameterTree.makeDefault()).load()?.isComplete == true)
        let kept = try #require(try directory.files().first { $0.hasPrefix("state.json.corrupt-") })
        #expect(
            FileManager.default.contents(atPath: directory.url.appendingPathComponent(kept).path) == Data(text.utf8))
    }

    @Test func hugeOrSpecialFilesAreRefused() throws {
        let directory = Directory()
        let huge = Data(repeating: 0x20, count: ParameterPreset.maximumFileSize + 1)
        _ = FileManager.default.createFile(atPath: directory.statePath, contents: huge)
        let limit = ParameterPreset.maximumFileSize
        let tooLarge = PresetError.fileTooLarge(bytes: limit + 1, limit: limit)
        do {
            try StateFile(path: directory.statePath, tree: ParameterTree.makeDefault()).load()
            Issue.record("a file of \(limit + 1) bytes was loaded")
        } catch {
            if case .keptAside(directory.statePath, tooLarge, let kept) = error {
                #expect(kept.hasPrefix(directory.statePath + ".corrupt-"))
            } else {
                Issue.record("unexpected \(error)")
            }
        }
        let link = directory.url.appendingPathComponent("zero.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        #expect(throws: StateFileError.self) { try StateFile(path: link, tree: ParameterTree.makeDefault()).load() }
    }

    @Test func partialFileLoadsWhatFits() throws {
        let directory = Directory()
        let text = """
            {"format": "knoblink-preset", "version": 1, "values": {"knob.gain": -3, "knob.pan": 99, "gone": 1}}
            """
        _ = FileManager.default.createFile(atPath: directory.statePath, contents: Data(text.utf8))
        let tree = ParameterTree.makeDefault()
        let report = try #require(try StateFile(path: directory.statePath, tree: tree).load())
        #expect(report.applied == ["knob.gain"])
        #expect(report.issues.map(\.keyPath) == ["gone", "knob.pan"])
        #expect(tree.parameter(forKeyPath: "knob.gain")!.value == -3)
    }

    @Test func writeFailuresAreReported() async throws {
        let directory = Directory()
        let path = directory.url.appendingPathComponent("missing/state.json").path
        let errors = Locked<[StateFileError]>([])
        let tree = ParameterTree.makeDefault()
        let file = StateFile(path: path, tree: tree, minimumInterval: 0) { error in
            errors.withLock { $0.append(error) }
        }
        file.start()
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-1)
        #expect(try await Self.eventually { errors.withLock { !$0.isEmpty } })
        #expect(file.lastError != nil)
        #expect(throws: StateFileError.self) { try file.stop() }
        #expect(file.writeCount == 0)
        #expect(errors.withLock { $0.first?.description.hasPrefix("state file '\(path)' not written") } == true)
    }

    @Test func stoppedFileNoLongerFollowsTheTree() async throws {
        let directory = Directory()
        let tree = ParameterTree.makeDefault()
        let file = StateFile(path: directory.statePath, tree: tree, minimumInterval: 0)
        file.start()
        try file.stop()
        let count = file.writeCount
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-2)
        try await Task.sleep(for: .milliseconds(100))
        #expect(file.writeCount == count)
        #expect(tree.observerCount == 0)
    }
}

@Suite struct StateFileServerTests {
    @Test func serverKeepsValuesAcrossARestart() async throws {
        let directory = StateFileTests.Directory()
        var configuration = KnobLinkServer.Configuration()
        configuration.port = 0
        configuration.bindHost = "127.0.0.1"
        configuration.stateFile = directory.statePath
        let first = try KnobLinkServer(tree: ParameterTree.makeDefault(), configuration: configuration)
        try first.start()
        // A remote change and a local one.
        let peer = try TestPeer(port: first.port)
        peer.send("/knob/pan", [.float32(1)])
        first.tree.parameter(forKeyPath: "knob.gain")!.setValue(-21)
        #expect(try await StateFileTests.eventually { first.tree.parameter(forKeyPath: "knob.pan")!.value == 50 })
        first.stop()

        let second = try KnobLinkServer(tree: ParameterTree.makeDefault(), configuration: configuration)
        try second.start()
        defer { second.stop() }
        #expect(second.tree.parameter(forKeyPath: "knob.gain")!.value == -21)
        #expect(second.tree.parameter(forKeyPath: "knob.pan")!.value == 50)
    }

    @Test func brokenStateFileIsLoggedAndTheServerStarts() throws {
        let directory = StateFileTests.Directory()
        _ = FileManager.default.createFile(atPath: directory.statePath, contents: Data("{ not json".utf8))
        var configuration = KnobLinkServer.Configuration()
        configuration.port = 0
        configuration.bindHost = "127.0.0.1"
        configuration.stateFile = directory.statePath
        let server = try KnobLinkServer(tree: ParameterTree.makeDefault(), configuration: configuration)
        let events = Locked<[LogEvent]>([])
        server.log = { event in events.withLock { $0.append(event) } }
        try server.start()
        server.stop()
        #expect(events.withLock { $0.contains { $0.level == .warning && $0.message.contains("ignored") } })
        #expect(try StateFile(path: directory.statePath, tree: ParameterTree.makeDefault()).load()?.isComplete == true)
    }
}
