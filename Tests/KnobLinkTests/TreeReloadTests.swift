import Foundation
import OSCCore
import Parameters
import Testing

@testable import KnobLink

/// Tree reload (PROTOCOL.md section 7, tree changes): a new tree is served with every peer, its
/// subscriptions and the kept values; WebSocket clients hear what changed; a bad file changes nothing.
@Suite struct TreeReloadTests {
    /// The default tree without `/knob/pan`, with `/knob/width` (0…100, default 25) added, and
    /// `/knob/gain`'s range narrowed to −20…6 dB.
    static func changedTree() throws -> ParameterTree {
        let width = ParameterNodeSpec.parameter(
            ParameterSpec(
                identifier: "width", displayName: "Width", address: 900, minValue: 0, maxValue: 100,
                defaultValue: 25, unit: .percent, flags: [.readable, .writable]))
        let specs = ParameterTree.defaultSpecs.map { node -> ParameterNodeSpec in
            guard case .group(var group) = node, group.identifier == "knob" else { return node }
            group.children =
                group.children.compactMap { child -> ParameterNodeSpec? in
                    guard case .parameter(var spec) = child else { return child }
                    if spec.identifier == "pan" { return nil }
                    if spec.identifier == "gain" { (spec.minValue, spec.maxValue) = (-20, 6) }
                    return .parameter(spec)
                } + [width]
            return .group(group)
        }
        return try ParameterTree(children: specs)
    }

    @Test func valuesAreKeptSubscriptionsGoOnAndAddressesComeAndGo() async throws {
        let fixture = try ServerFixture()
        let frequency = fixture.tree.parameter(forKeyPath: "knob.frequency")!
        frequency.setValue(1000)
        fixture.tree.parameter(forKeyPath: "knob.gain")!.setValue(-40)
        let subscriber = try fixture.peer()
        await subscriber.subscribe(pattern: "/knob/*", flags: 4)  // raw values
        let report = try fixture.server.reloadTree(try Self.changedTree())
        #expect(report.added == ["/knob/width"] && report.removed == ["/knob/pan"])
        #expect(report.kept == report.parameters - 1)
        let tree = fixture.tree
        #expect(tree.parameter(forKeyPath: "knob.pan") == nil)
        #expect(tree.parameter(forKeyPath: "knob.frequency")!.value == 1000)
        // −40 dB does not fit −20…6: clamped, and the subscriber is told.
        #expect(tree.parameter(forKeyPath: "knob.gain")!.value == -20)
        #expect(
            await subscriber.wait { $0.contains { $0.address == "/knob/gain/raw" && $0.arguments == [.float32(-20)] } })
        // The new parameter matches the subscription's pattern: its value arrives.
        #expect(
            await subscriber.wait { $0.contains { $0.address == "/knob/width/raw" && $0.arguments == [.float32(25)] } })
        #expect(!subscriber.messages.contains { $0.address.hasPrefix("/knob/frequency") })

        // The subscription goes on for what remains and covers what came.
        let setter = try fixture.peer()
        setter.send("/knob/frequency/raw", [.float32(2000)])
        setter.send("/knob/width/raw", [.float32(75)])
        #expect(
            await subscriber.wait {
                $0.contains { $0.address == "/knob/frequency/raw" && $0.arguments == [.float32(2000)] }
            })
        #expect(
            await subscriber.wait { $0.contains { $0.address == "/knob/width/raw" && $0.arguments == [.float32(75)] } })
        #expect(tree.parameter(forKeyPath: "knob.width")!.value == 75)
        // What went is unknown now.
        let error = await setter.request("/knob/pan", [.float32(0.5)], reply: "/sys/error")
        #expect(error?.arguments.first == .string("/knob/pan"))
        #expect(fixture.statistic("treeReloads") == 1)
    }

    @Test func localChangesReachPeersThroughTheNewTreeOnly() async throws {
        let fixture = try ServerFixture()
        let old = fixture.tree
        let subscriber = try fixture.peer()
        await subscriber.subscribe(pattern: "/knob/frequency", flags: 4)
        try fixture.server.reloadTree(try Self.changedTree())
        // The old tree is no longer served: a change made on it goes nowhere.
        old.parameter(forKeyPath: "knob.frequency")!.setValue(300)
        fixture.tree.parameter(forKeyPath: "knob.frequency")!.setValue(500)
        #expect(await subscriber.wait { $0.contains { $0.arguments == [.float32(500)] } })
        await subscriber.sync()
        #expect(!subscriber.messages.contains { $0.arguments == [.float32(300)] })
    }

    @Test func webSocketClientsHearWhatWasAddedAndRemoved() async throws {
        let fixture = try ServerFixture()
        let client = try RawTCPClient(port: fixture.port)
        #expect(await client.openWebSocket()?.status == 101)
        client.send(WebSocketTesting.text(#"{"COMMAND":"LISTEN","DATA":"/knob/frequency"}"#))
        _ = await client.frames { !OSCQueryServerTests.values($0, "/knob/frequency").isEmpty }
        client.consume(client.bytes.count)
        try fixture.server.reloadTree(try Self.changedTree())
        let texts = { (frames: [WebSocketTesting.Frame]) in
            frames.filter { $0.opcode == 1 }.map { String(decoding: $0.payload, as: UTF8.self) }
        }
        let frames = await client.frames { texts($0).count >= 2 }
        let notes = texts(frames)
        // Removals first, then additions (a PATH_ADDED carries the new node). Gain's narrower
        // range is not a change here: OSCQuery serves normalised values, its RANGE stays 0…1.
        #expect(notes.count == 2, "\(notes)")
        #expect(notes.first == #"{"COMMAND":"PATH_REMOVED","DATA":"/knob/pan"}"#)
        #expect(notes.last?.hasPrefix(#"{"COMMAND":"PATH_ADDED","DATA":{"FULL_PATH":"/knob/width""#) == true)
        // The LISTEN goes on.
        client.consume(client.bytes.count)
        try fixture.peer().send("/knob/frequency", [.float32(0.5)])
        #expect(await !client.frames { OSCQueryServerTests.values($0, "/knob/frequency").contains(0.5) }.isEmpty)
        // A reload that only adds and removes names each path.
        client.consume(client.bytes.count)
        let specs = try Self.changedTree().specs.filter { $0.identifier != "toggle" }
        try fixture.server.reloadTree(try ParameterTree(children: specs))
        let next = texts(await client.frames { texts($0).count >= 1 })
        #expect(next == [#"{"COMMAND":"PATH_REMOVED","DATA":"/toggle"}"#], "\(next)")
    }

    @Test func sysTreeReloadReadsTheFileAndABadFileKeepsTheOldTree() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-reload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tree.json")
        try ParameterTree.makeDefault().jsonString().write(to: file, atomically: true, encoding: .utf8)
        let fixture = try ServerFixture(tree: try ParameterTree(contentsOf: file)) { $0.treeFile = file.path }
        fixture.tree.parameter(forKeyPath: "knob.frequency")!.setValue(880)
        let peer = try fixture.peer()

        try Self.changedTree().jsonString().write(to: file, atomically: true, encoding: .utf8)
        let reloaded = await peer.request("/sys/tree/reload", reply: "/sys/tree/reloaded")
        #expect(reloaded?.arguments == [.int32(Int32(fixture.tree.allParameters.count)), .int32(1), .int32(1)])
        #expect(fixture.tree.parameter(forKeyPath: "knob.width") != nil)
        #expect(fixture.tree.parameter(forKeyPath: "knob.frequency")!.value == 880)

        let served = fixture.tree
        try "{\"children\": [".write(to: file, atomically: true, encoding: .utf8)
        let refused = await peer.request("/sys/tree/reload", reply: "/sys/error")
        #expect(refused?.arguments.first == .string("/sys/tree/reload"))
        if case .string(let reason)? = refused?.arguments.last {
            #expect(reason.contains("tree not reloaded, the old one is kept") && reason.contains(file.path))
        } else {
            Issue.record("no reason in \(String(describing: refused))")
        }
        #expect(fixture.tree === served)
        #expect(await peer.request("/knob/width/raw/get", reply: "/knob/width/raw") != nil)
        #expect(fixture.statistic("treeReloadsRefused") == 1)
        #expect(throws: KnobLinkServerError.self) { try fixture.server.reloadTreeFile() }
    }

    @Test func withoutATreeFileAReloadIsRefused() async throws {
        let fixture = try ServerFixture()
        let peer = try fixture.peer()
        let refused = await peer.request("/sys/tree/reload", reply: "/sys/error")
        guard case .string(let reason)? = refused?.arguments.last else {
            Issue.record("no /sys/error: \(String(describing: refused))")
            return
        }
        #expect(reason.contains("--tree"))
    }
}
