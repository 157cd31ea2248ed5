import KnobLink
import Parameters

/// A server on 127.0.0.1, a free port, the default tree, feedback to the source port.
final class ServerFixture {
    let server: KnobLinkServer
    var tree: ParameterTree { server.tree }
    var port: UInt16 { server.port }

    init(
        tree: ParameterTree = ParameterTree.makeDefault(),
        _ adjust: (inout KnobLinkServer.Configuration) -> Void = { _ in }
    )
        throws
    {
        var configuration = KnobLinkServer.Configuration()
        configuration.port = 0
        configuration.bindHost = "127.0.0.1"
        configuration.feedbackPort = .auto
        adjust(&configuration)
        server = try KnobLinkServer(tree: tree, configuration: configuration)
        try server.start()
    }

    deinit { server.stop() }

    func peer(from host: String = "127.0.0.1") throws -> TestPeer {
        try TestPeer(port: port, remoteHost: host)
    }

    func statistic(_ name: String) -> Int {
        server.statistics().first { $0.name == name }?.value ?? -1
    }
}
