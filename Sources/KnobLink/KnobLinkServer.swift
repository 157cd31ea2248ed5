import Dispatch
import Locking
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

    /// The tree served: the one given at creation until a reload replaces it
    /// (``reloadTree(_:)``, ``reloadTreeFile()``, `/sys/tree/reload`).
    public var tree: ParameterTree { core.servedTree.withLock { $0 } }
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
        self.configuration = configuration
        loop = OSCEventLoop(label: "KnobLink.server")
        core = try ServerCore(tree: tree, configuration: configuration, loop: loop)
    }

    /// Binds UDP and then TCP on the same port (with port 0, a free pair) and starts serving.
    ///
    /// Calling it again once started does nothing; after a start that threw (a port in use), it
    /// tries again. The server counts as started only once both sockets are bound, and the check
    /// runs on the loop, so that two callers at once do not both bind.
    /// - Throws: `OSCSystemError` or `OSCSocketAddressError` if the port cannot be bound.
    public func start() throws {
        try onLoop {
            guard !state.withLock({ $0.started }) else { return }
            let port = try core.start()
            state.withLock {
                $0.port = port
                $0.started = true
            }
        }
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
        get { core.logHandler.handler }
        set { core.logHandler.handler = newValue }
    }

    /// Serves `newTree` from now on, keeping peers, subscriptions and the values of every
    /// parameter whose address remains (PROTOCOL.md section 7, tree changes); WebSocket clients
    /// get `PATH_ADDED`/`PATH_REMOVED`. Observers registered on the old tree hear nothing more.
    /// - Throws: ``KnobLinkServerError/treeNotReloaded(reason:)`` when the new tree's addresses
    ///   cannot be served; the old tree stays.
    @discardableResult
    public func reloadTree(_ newTree: ParameterTree) throws(KnobLinkServerError) -> TreeReloadReport {
        let result: Result<TreeReloadReport, KnobLinkServerError> = onLoop {
            Result { () throws(KnobLinkServerError) in try core.reloadTree(newTree) }
        }
        return try result.get()
    }

    /// Reads ``Configuration/treeFile`` again and serves it (what SIGHUP does in `knoblink serve`).
    /// - Throws: ``KnobLinkServerError/treeNotReloaded(reason:)`` when there is no tree file, or
    ///   it cannot be read or is not a valid tree; the old tree stays.
    @discardableResult
    public func reloadTreeFile() throws(KnobLinkServerError) -> TreeReloadReport {
        precondition(!loop.inEventLoop, "reloadTreeFile() waits for the loop: call it from another thread")
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<TreeReloadReport, KnobLinkServerError>?>(nil)
        loop.execute { [core] in
            core.reloadTreeFile { core, result in
                outcome.withLock { $0 = result }
                done.signal()
            }
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Told of the new tree after each reload (however it was asked for), on the server's loop:
    /// a local surface bound to the old tree binds to this one.
    public var onTreeReload: (@Sendable (ParameterTree) -> Void)? {
        get { core.treeReloadHandler.handler }
        set { core.treeReloadHandler.handler = newValue }
    }

    /// Runs `body` on the loop and returns its result.
    func onLoop<T>(_ body: () throws -> T) rethrows -> T {
        if loop.inEventLoop { return try body() }
        return try loop.queue.sync(execute: body)
    }
}
