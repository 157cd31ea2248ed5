import Dispatch
import KnobLink
import Parameters

/// Embeds a KnobLink server in a program: the program owns the parameter tree, the server puts
/// it on the network, and changes flow both ways.
///
///     swift run EmbeddedServer          # port 8000
///     swift run EmbeddedServer 0        # a free port
@main
enum EmbeddedServer {
    static func main() throws {
        // The tree: the embedded default here; an application builds its own with
        // ParameterTree(children:) or reads a tree file with ParameterTree(contentsOf:).
        let tree = ParameterTree.makeDefault()

        var configuration = KnobLinkServer.Configuration()
        configuration.port = CommandLine.arguments.dropFirst().first.flatMap { UInt16($0) } ?? 8000
        let server = try KnobLinkServer(tree: tree, configuration: configuration)
        server.log = { @Sendable event in print(event) }
        try server.start()
        print("Listening on UDP and TCP port \(server.port)")

        // Remote changes reach the tree's observers, on the server's thread. The token is also
        // the originator of the program's own changes below, which it therefore does not hear.
        let token = tree.token(byAddingParameterObserver: { @Sendable change in
            print("\(change.parameter.oscAddress) = \(change.parameter.string(fromValue: change.value))")
        })

        // Local changes reach every subscriber, as a remote change would: /knob/pan swings
        // from side to side once a second.
        let pan = tree.parameter(forOSCAddress: "/knob/pan")!
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pan"))
        timer.setEventHandler { @Sendable in
            pan.setValue(pan.value < 0 ? 25 : -25, originator: token)
        }
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.resume()

        withExtendedLifetime((server, timer)) { dispatchMain() }
    }
}
