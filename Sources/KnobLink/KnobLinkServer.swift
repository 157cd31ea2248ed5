import Dispatch
import OSCTransport
import Parameters

/// An OSC server over a parameter tree: the address space, subscriptions and echo rules of
/// PROTOCOL.md, on UDP and TCP on one port.
///
/// ```swift
/// var configuration = KnobLinkServer.Configuration()
/// configuration.port = 0
/// let server = try KnobLinkServer(tree: ParameterTree.makeDefault(), configuration: configuration)
/// try server.start()
/// print("Listening on UDP and TCP port \(server.port)")
/// ```
///
/// All of the server's state lives on one event loop (``loop``). Values set through the
/// `Parameters` API from any thread reach the subscribers like a remote change; remote changes
/// reach the tree's observers.
public final class KnobLinkServer: Sendable {
    /// KnobLink's version, sent in `/sys/pong`.
    public static let version = "0.1.0"

    /// The tree served.
    public let tree: ParameterTree
    /// The configuration given at creation.
    public let configuration: Configuration
    /// The loop that owns the sockets and the server's state.
    public let loop: OSCEventLoop

    let core: ServerCore
    private let state = Locked(State())

    private struct State {
        var port: UInt16 = 0
        var started = false
    }

    /// Creates a server; nothing is bound until ``start()``.
    /// - Throws: ``KnobLinkServerError`` for a bad root, or ``PresetStoreError`` for a presets
    ///   directory that cannot be used.
    public init(tree: ParameterTree, configuration: Configuration = .init()) throws {
        self.tree = tree
        self.configuration = configuration
        loop = OSCEventLoop(label: "KnobLink.server")
        core = try ServerCore(tree: tree, configuration: configuration, loop: loop)
    }

    /// Binds UDP and then TCP on the same port (with port 0, a free pair) and starts serving.
    /// - Throws: `OSCSystemError` or `OSCSocketAddressError` if the port cannot be bound.
    public func start() throws {
        let started = state.withLock { state -> Bool in
            defer { state.started = true }
            return state.started
        }
        guard !started else { return }
        let port = try onLoop { try core.start() }
        state.withLock { $0.port = port }
    }

    /// The bound port once started (the configured one before).
    public var port: UInt16 {
        state.withLock { $0.started && $0.port != 0 ? $0.port : configuration.port }
    }

    /// The instance's name (`--name`, or `host:port`).
    public var name: String { onLoop { core.name } }

    // A server dropped without `stop()` must not leave sockets calling into freed state.
    deinit {
        stop()
    }

    /// Stops serving and closes the sockets.
    public func stop() {
        onLoop { core.stop() }
    }

    /// The counters that `/sys/stats` sends, by name.
    public func statistics() -> [(name: String, value: Int)] {
        onLoop { core.statisticsEntries() }
    }

    /// Told of peers joining and leaving, refused input and errors; called on the server's loop.
    public var log: (@Sendable (LogEvent) -> Void)? {
        get { core.logHandler.withLock { $0 } }
        set { core.logHandler.withLock { $0 = newValue } }
    }

    /// Runs `body` on the loop and returns its result.
    func onLoop<T>(_ body: () throws -> T) rethrows -> T {
        if loop.inEventLoop { return try body() }
        return try loop.queue.sync(execute: body)
    }
}
