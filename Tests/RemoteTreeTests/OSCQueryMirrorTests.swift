import KnobLink
import Locking
import OSCCore
import OSCTransport
import Parameters
import RemoteTree
import Testing

/// The mirror of an OSCQuery server, against a real KnobLink server in this process read over
/// HTTP and its WebSocket (PROTOCOL.md section 7): the namespace becomes the tree, values come
/// by LISTEN and go back as binary OSC, never echoed; touch, tree reloads, restarts, the waveform.
@Suite struct OSCQueryMirrorTests {
    static func mirror(
        _ server: KnobLinkServer, onEvent: @escaping @Sendable (RemoteTreeEvent) -> Void = { _ in }
    ) async throws -> RemoteParameterTree {
        try await RemoteParameterTree.connect(to: .oscQuery(host: "127.0.0.1", port: server.port), onEvent: onEvent)
    }

    @Test func theNamespaceBecomesATreeOfNormalisedValues() async throws {
        let tree = ParameterTree.makeDefault()
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-12)
        let server = try RemoteParameterTreeTests.startServer(tree: tree)
        defer { server.stop() }
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        #expect(remote.state == .synced)
        #expect(remote.serverName == server.name)
        #expect(remote.tree.allParameters.map(\.oscAddress) == tree.allParameters.map(\.oscAddress))
        for (local, original) in zip(remote.tree.allParameters, tree.allParameters) {
            #expect(local.displayName == original.displayName)
            #expect(local.minValue == 0 && local.maxValue == 1)
            #expect(abs(Double(local.value) - original.normalizedValue) < 1e-6, "\(original.oscAddress)")
            #expect((local.unit == .boolean) == (original.unit == .boolean), "\(original.oscAddress)")
        }
        #expect(remote.tree.allGroups.map(\.displayName) == tree.allGroups.map(\.displayName))
    }

    @Test func valuesGoBothWaysAndAreNeverSentBack() async throws {
        let server = try RemoteParameterTreeTests.startServer()
        defer { server.stop() }
        let listener = try UDPPeer()
        try listener.send(
            OSCMessage("/sys/subscribe", [.string(listener.url), .string(""), .float32(0), .int32(0)]),
            toPort: server.port)
        #expect(await eventually { listener.messages.contains { $0.address == "/sys/update" } })
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        let pan = server.tree.parameter(forKeyPath: "knob.pan")!
        // At once after the sync: the server's answer to the LISTEN, older than this change, must
        // not overwrite it once the feedback guard lets it through (it did, 1 run in 5 before the
        // sync waited for that answer).
        remote.tree.parameter(forKeyPath: "knob.pan")!.setValue(0.75)
        #expect(await eventually { abs(pan.normalizedValue - 0.75) < 1e-6 })
        #expect(
            await eventually {
                listener.messages.contains { $0.address == "/knob/pan" && $0.arguments == [.float32(0.75)] }
            })
        // Past the feedback guard (150 ms), the mirror still holds the value it sent.
        try await Task.sleep(for: .milliseconds(300))
        #expect(remote.tree.parameter(forKeyPath: "knob.pan")!.value == 0.75)

        let setsBefore = RemoteParameterTreeTests.count("setsApplied", server)
        let other = try UDPPeer()
        try other.send(OSCMessage("/knob/gain", [.float32(0.25)]), toPort: server.port)
        #expect(await eventually { remote.tree.parameter(forKeyPath: "knob.gain")!.value == 0.25 })
        // Had the mirror sent the gain back, that set would reach the server before this one.
        remote.tree.parameter(forKeyPath: "knob.pan")!.setValue(0.5)
        #expect(await eventually { abs(pan.normalizedValue - 0.5) < 1e-6 })
        #expect(RemoteParameterTreeTests.count("setsApplied", server) == setsBefore + 2)
        #expect(remote.statistics.valuesSent == 2)
        #expect(remote.tree.parameter(forKeyPath: "knob.pan")!.value == 0.5)
        #expect(abs(server.tree.parameter(forKeyPath: "knob.gain")!.normalizedValue - 0.25) < 1e-6)
    }

    @Test func aToggleIsSentAsItsValueAndTouchReachesTheServer() async throws {
        let server = try RemoteParameterTreeTests.startServer()
        defer { server.stop() }
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        #expect(await RemoteParameterTreeTests.aGestureReachesTheServer(remote, server, value: 0.4))

        let toggle = try #require(server.tree.allParameters.first { $0.unit == .boolean })
        let mirrored = try #require(remote.tree.parameter(forKeyPath: toggle.keyPath))
        #expect(mirrored.unit == .boolean)
        mirrored.setValue(toggle.value == 0 ? 1 : 0)
        let wanted: ParameterValue = mirrored.value
        #expect(await eventually { toggle.value == wanted })
    }

    @Test func aReloadedTreeIsReadAgain() async throws {
        let server = try RemoteParameterTreeTests.startServer()
        defer { server.stop() }
        let replaced = Locked<ParameterTree?>(nil)
        let remote = try await Self.mirror(server) { event in
            if case .treeReplaced(let tree) = event { replaced.withLock { $0 = tree } }
        }
        defer { remote.close() }
        let other = try ParameterTree(children: [
            .group(
                "mix", "Mix",
                [
                    .parameter(
                        ParameterSpec(identifier: "level", displayName: "Level", address: 1, minValue: 0, maxValue: 1))
                ])
        ])
        _ = try server.reloadTree(other)
        #expect(await eventually { replaced.withLock { $0 } != nil })
        #expect(remote.tree.allParameters.map(\.oscAddress) == ["/mix/level"])
        remote.tree.parameter(forKeyPath: "mix.level")!.setValue(0.3)
        #expect(await eventually { abs(server.tree.parameter(forKeyPath: "mix.level")!.normalizedValue - 0.3) < 1e-6 })
    }

    @Test func aRestartedServerIsMirroredAgain() async throws {
        let first = try RemoteParameterTreeTests.startServer()
        let port = first.port
        let states = Locked<[RemoteTreeState]>([])
        let remote = try await Self.mirror(first) { event in
            if case .stateChanged(let state) = event { states.withLock { $0.append(state) } }
        }
        defer { remote.close() }
        let mirrored = remote.tree
        first.stop()
        #expect(await eventually { remote.state == .lost })
        let tree = ParameterTree.makeDefault()
        tree.parameter(forKeyPath: "knob.pan")!.setNormalizedValue(0.9)
        let second = try await RemoteParameterTreeTests.restartServer(port: port, tree: tree)
        defer { second.stop() }
        #expect(await eventually { remote.state == .synced && remote.statistics.resyncs >= 1 })
        #expect(await eventually { abs(remote.tree.parameter(forKeyPath: "knob.pan")!.value - 0.9) < 1e-6 })
        #expect(remote.tree === mirrored)
        remote.tree.parameter(forKeyPath: "knob.gain")!.setValue(0.1)
        #expect(await eventually { abs(second.tree.parameter(forKeyPath: "knob.gain")!.normalizedValue - 0.1) < 1e-6 })
        #expect(states.withLock { $0 }.drop { $0 != .lost }.starts(with: [.lost, .resyncing]))
    }

    @Test func theWaveformComesOverTheWebSocket() async throws {
        let server = try RemoteParameterTreeTests.startServer()
        defer { server.stop() }
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        #expect(await eventually { remote.wave?.bars.count == RemoteWave.barCount })
        #expect(remote.wave?.bars == server.waveBars(count: RemoteWave.barCount))
        remote.setWavePlaying(true)
        #expect(await eventually { server.waveState?.isPlaying == true })
        remote.seekWave(to: 0.25)
        #expect(await eventually { abs((server.waveState?.progress ?? 0) - 0.25) < 0.05 })
    }

    @Test func aServerThatIsNotOSCQueryIsRefused() async throws {
        // A KnobLink server's OSC over TCP is not HTTP: the mirror gets no JSON.
        let peer = try OSCTCPServer(host: "127.0.0.1", port: 0)
        peer.start(onFrame: { _, _ in })
        defer { peer.close() }
        var options = RemoteTreeOptions()
        options.timeout = .milliseconds(500)
        await #expect(throws: RemoteTreeError.self) {
            _ = try await RemoteParameterTree.connect(
                to: .oscQuery(host: "127.0.0.1", port: peer.localAddress.port), options: options)
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/", RemoteServer.oscQuery(host: "127.0.0.1", port: 8080)),
        ("http://[::1]:9/x", .oscQuery(host: "::1", port: 9)),
        ("HTTP://host", .oscQuery(host: "host", port: 80)),
    ])
    func urlsAreRead(text: String, server: RemoteServer) throws {
        #expect(try RemoteServer.parse(text) == server)
    }

    @Test(arguments: ["http://h:0/", "http://:80/", "http://h:x/", "http://[::1/"])
    func badURLsAreRefused(text: String) {
        #expect(throws: RemoteTreeError.self) { try RemoteServer.parse(text) }
    }
}
