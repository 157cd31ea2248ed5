import Glibc
import KnobLink
import Parameters
import Synchronization

/// KnobLink's server, embedded in this process as an application would embed it, on the 1,000-parameter
/// tree (or the default tree).
enum KnobLinkSide {
    static let name = "KnobLink"

    /// What the benchmark changes from `knoblink serve`'s defaults: a free port on loopback, replies
    /// to the source port (each benchmark peer is its own socket), and no per-peer rate limit (one
    /// setter sends far more than the default 2000 messages a second).
    static func configuration() -> KnobLinkServer.Configuration {
        var configuration = KnobLinkServer.Configuration()
        configuration.port = 0
        configuration.bindHost = "127.0.0.1"
        configuration.feedbackPort = .auto
        configuration.rateLimit = 1 << 30
        return configuration
    }

    static func start(tree: ParameterTree = BenchTree.make()) -> ServerUnderTest {
        let server: KnobLinkServer
        do {
            server = try KnobLinkServer(tree: tree, configuration: configuration())
            try server.start()
        } catch {
            fatalError("KnobLink server: \(error)")
        }
        // Applied sets are counted by an observer of the tree: what reached the tree, whatever the server's
        // own counters say (its `setsApplied` went up twice per remote set at commit 02a4af2).
        let applied = Counter()
        let token = tree.token(byAddingParameterObserver: { change in
            if change.eventType == .value { applied.value.add(1, ordering: .relaxed) }
        })
        return ServerUnderTest(
            name: name, port: server.port, applied: { applied.value.load(ordering: .relaxed) },
            stop: {
                tree.removeParameterObserver(token)
                server.stop()
            })
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    static func startDefaultTree() -> ServerUnderTest {
        start(tree: ParameterTree.makeDefault())
    }

    /// The child process of the memory figure: serves the 1,000-parameter tree until stdin closes.
    static func serveUntilStdinCloses() {
        let server = start()
        print("port \(server.port)")
        fflush(nil)  // every stream: `stdout` is not concurrency-safe in Swift 6
        waitForStdinToClose()
        server.stop()
    }
}

/// Blocks until the parent closes this process's stdin.
func waitForStdinToClose() {
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
}
