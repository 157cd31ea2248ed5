import KnobLink
import Locking
import OSCCore
import OSCTransport
import Parameters
import RemoteTree
import Testing

/// The mirror against a real server in this process (loopback, port 0): the tree it builds,
/// values both ways, E6, touch, a restart on the same port, TCP.
@Suite struct RemoteParameterTreeTests {
    static func startServer(port: UInt16 = 0, tree: ParameterTree = .makeDefault()) throws -> KnobLinkServer {
        var configuration = KnobLinkServer.Configuration()
        configuration.port = port
        configuration.bindHost = "127.0.0.1"
        let server = try KnobLinkServer(tree: tree, configuration: configuration)
        try server.start()
        return server
    }

    /// Starts a server on the port a stopped one had: its UDP socket is closed by its reader
    /// thread shortly after `stop()` returns, so the port may still be taken for a moment.
    static func restartServer(port: UInt16, tree: ParameterTree = .makeDefault()) async throws -> KnobLinkServer {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                return try startServer(port: port, tree: tree)
            } catch {
                guard ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    static func mirror(_ server: KnobLinkServer, transport: OSCURL.Transport = .udp) async throws
        -> RemoteParameterTree
    {
        try await RemoteParameterTree.connect(to: OSCURL(transport: transport, host: "127.0.0.1", port: server.port))
    }

    static func count(_ name: String, _ server: KnobLinkServer) -> Int {
        server.statistics().first { $0.name == name }?.value ?? -1
    }

    @Test func buildsTheServersTreeWithItsValues() async throws {
        let tree = ParameterTree.makeDefault()
        tree.parameter(forKeyPath: "knob.gain")!.setValue(-12)
        let server = try Self.startServer(tree: tree)
        defer { server.stop() }
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        #expect(remote.state == .synced)
        #expect(remote.tree.allParameters.count == tree.allParameters.count)
        for (local, original) in zip(remote.tree.allParameters, tree.allParameters) {
            #expect(local.oscAddress == original.oscAddress)
            #expect(local.displayName == original.displayName)
            #expect(local.unit == original.unit)
            #expect(local.minValue == original.minValue && local.maxValue == original.maxValue)
            #expect(local.defaultValue == original.defaultValue)
            #expect(local.value == original.value)
            #expect(local.taper == original.taper)
            #expect(local.flags == original.flags)
            #expect(local.valueStrings == original.valueStrings)
        }
        #expect(remote.tree.allGroups.map(\.displayName) == tree.allGroups.map(\.displayName))
        #expect(remote.tree.parameter(forKeyPath: "knob.gain")?.value == -12)
        #expect(!remote.serverName.isEmpty)
    }

    @Test func aLocalChangeReachesTheServerAndItsSubscribers() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let listener = try UDPPeer()
        try listener.send(
            OSCMessage("/sys/subscribe", [.string(listener.url), .string(""), .float32(0), .int32(4)]),
            toPort: server.port)
        #expect(await eventually { listener.messages.contains { $0.address == "/sys/update" } })
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        remote.tree.parameter(forKeyPath: "knob.pan")!.setValue(25)
        #expect(await eventually { server.tree.parameter(forKeyPath: "knob.pan")!.value == 25 })
        #expect(
            await eventually {
                listener.messages.contains { $0.address == "/knob/pan/raw" && $0.arguments == [.float32(25)] }
            })
        #expect(remote.statistics.valuesSent == 1)
    }

    @Test func aServerSideChangeReachesTheMirrorAndIsNotSentBack() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        let setsBefore = Self.count("setsApplied", server)
        let other = try UDPPeer()
        try other.send(OSCMessage("/knob/gain/raw", [.float32(-24)]), toPort: server.port)
        #expect(await eventually { remote.tree.parameter(forKeyPath: "knob.gain")!.value == -24 })
        // The mirror sends in order: had it sent the gain back, that set would reach the server
        // before this one.
        remote.tree.parameter(forKeyPath: "knob.pan")!.setValue(-10)
        #expect(await eventually { server.tree.parameter(forKeyPath: "knob.pan")!.value == -10 })
        #expect(Self.count("setsApplied", server) == setsBefore + 2)
        #expect(remote.statistics.valuesSent == 1)
        #expect(server.tree.parameter(forKeyPath: "knob.gain")!.value == -24)
    }

    @Test func touchBeginsAndEndsOnTheServer() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        #expect(await Self.aGestureReachesTheServer(remote, server, value: -3))
    }

    /// Touches the mirror's gain, sets `value`, releases it: whether the server's gain saw the
    /// three events in order, and the mirror counted two touches.
    static func aGestureReachesTheServer(_ remote: RemoteParameterTree, _ server: KnobLinkServer, value: Float) async
        -> Bool
    {
        let events = Locked<[AutomationEventType]>([])
        let gain = server.tree.parameter(forKeyPath: "knob.gain")!
        let token = gain.token { change in events.withLock { $0.append(change.eventType) } }
        defer { gain.removeParameterObserver(token) }
        let local = remote.tree.parameter(forKeyPath: "knob.gain")!
        local.setValue(local.value, eventType: .touch)
        local.setValue(value)
        local.setValue(value, eventType: .release)
        return await eventually { events.withLock { $0 } == [.touch, .value, .release] }
            && remote.statistics.touchesSent == 2
    }

    @Test func aHeldParameterTakesTheServersLatestValueAfterTheGesture() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let remote = try await Self.mirror(server)
        defer { remote.close() }
        let local = remote.tree.parameter(forKeyPath: "knob.pan")!
        local.setValue(local.value, eventType: .touch)
        #expect(await eventually { server.statistics().isEmpty == false })
        let other = try UDPPeer()
        try other.send(OSCMessage("/knob/pan/raw", [.float32(40)]), toPort: server.port)
        #expect(await eventually { server.tree.parameter(forKeyPath: "knob.pan")!.value == 40 })
        local.setValue(local.value, eventType: .release)
        #expect(await eventually { local.value == 40 })
    }

    @Test func aRestartedServerIsMirroredAgain() async throws {
        let first = try Self.startServer()
        let port = first.port
        let remote = try await Self.mirror(first)
        defer { remote.close() }
        let mirrored = remote.tree
        first.stop()
        let tree = ParameterTree.makeDefault()
        tree.parameter(forKeyPath: "knob.gain")!.setValue(6)
        let second = try await Self.restartServer(port: port, tree: tree)
        defer { second.stop() }
        #expect(await eventually { remote.statistics.resyncs >= 1 && remote.state == .synced })
        #expect(await eventually { remote.tree.parameter(forKeyPath: "knob.gain")!.value == 6 })
        // The same structure keeps the same tree, so that controls bound to it go on working.
        #expect(remote.tree === mirrored)
        remote.tree.parameter(forKeyPath: "knob.pan")!.setValue(12)
        #expect(await eventually { second.tree.parameter(forKeyPath: "knob.pan")!.value == 12 })
        let other = try UDPPeer()
        try other.send(OSCMessage("/knob/gain/raw", [.float32(-30)]), toPort: port)
        #expect(await eventually { remote.tree.parameter(forKeyPath: "knob.gain")!.value == -30 })
    }

    @Test func aRestartWithAnotherTreeReplacesIt() async throws {
        let first = try Self.startServer()
        let port = first.port
        let replaced = Locked<ParameterTree?>(nil)
        let remote = try await RemoteParameterTree.connect(
            to: OSCURL(host: "127.0.0.1", port: port),
            onEvent: { event in
                if case .treeReplaced(let tree) = event { replaced.withLock { $0 = tree } }
            })
        defer { remote.close() }
        first.stop()
        let other = try ParameterTree(children: [
            .parameter(ParameterSpec(identifier: "level", displayName: "Level", address: 1, minValue: 0, maxValue: 1))
        ])
        let second = try await Self.restartServer(port: port, tree: other)
        defer { second.stop() }
        #expect(await eventually { replaced.withLock { $0 } != nil })
        #expect(remote.tree.allParameters.map(\.oscAddress) == ["/level"])
    }

    @Test func mirrorsOverTCP() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let remote = try await Self.mirror(server, transport: .tcp)
        defer { remote.close() }
        #expect(remote.tree.allParameters.count == server.tree.allParameters.count)
        remote.tree.parameter(forKeyPath: "knob.gain")!.setValue(-9)
        #expect(await eventually { server.tree.parameter(forKeyPath: "knob.gain")!.value == -9 })
        let other = try UDPPeer()
        try other.send(OSCMessage("/knob/pan/raw", [.float32(-33)]), toPort: server.port)
        #expect(await eventually { remote.tree.parameter(forKeyPath: "knob.pan")!.value == -33 })
    }

    @Test func aRestartIsFollowedOverTCP() async throws {
        let first = try Self.startServer()
        let port = first.port
        let remote = try await Self.mirror(first, transport: .tcp)
        defer { remote.close() }
        first.stop()
        #expect(await eventually { remote.state == .lost })
        let tree = ParameterTree.makeDefault()
        tree.parameter(forKeyPath: "knob.pan")!.setValue(7)
        let second = try await Self.restartServer(port: port, tree: tree)
        defer { second.stop() }
        #expect(
            await eventually { remote.state == .synced && remote.tree.parameter(forKeyPath: "knob.pan")!.value == 7 })
    }
}
