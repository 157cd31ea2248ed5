import KnobLink
import Parameters
import Testing

/// `KnobLinkServer.start()`: a start that failed (the port was taken) can be retried, and a
/// second start of a running server does nothing.
@Suite struct ServerStartTests {
    private func configuration(port: UInt16) -> KnobLinkServer.Configuration {
        var configuration = KnobLinkServer.Configuration()
        configuration.port = port
        configuration.bindHost = "127.0.0.1"
        configuration.feedbackPort = .auto
        return configuration
    }

    @Test func startsOnRetryOnceThePortIsFree() async throws {
        let holder = try ServerFixture()
        let port = holder.port
        let server = try KnobLinkServer(tree: ParameterTree.makeDefault(), configuration: configuration(port: port))
        defer { server.stop() }
        #expect(throws: (any Error).self) { try server.start() }
        holder.server.stop()
        // The holder's sockets close on their own threads: the port may take a moment to be free.
        let deadline = ContinuousClock.now + .seconds(5)
        while (try? server.start()) == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let peer = try TestPeer(port: port)
        #expect(await peer.request("/sys/ping", reply: "/sys/pong") != nil)
    }

    @Test func secondStartOfARunningServerKeepsItsPort() async throws {
        let fixture = try ServerFixture()
        let port = fixture.port
        try fixture.server.start()
        #expect(fixture.port == port)
        let peer = try fixture.peer()
        #expect(await peer.request("/sys/ping", reply: "/sys/pong") != nil)
    }
}
