import OSCTransport
import Parameters

/// A local `ParameterTree` that mirrors a KnobLink server's tree, so that a Swift program, or
/// a surface written for a local tree, controls the server.
///
/// ``connect(to:options:onEvent:)-(OSCURL,_,_)`` reads the server's tree (`/sys/ping`, `/sys/groups`,
/// `/sys/list`, then `P/info` for each parameter's taper, flags and value strings), builds a
/// real `ParameterTree` from it, and subscribes to its values in the parameters' own units.
/// From then on:
///
/// - a value set on ``tree`` (by anyone but the mirror) is sent as `P/raw f`, and a touch or a
///   release as `P/touch i 1` / `i 0`;
/// - a value from the server is set on ``tree`` with the mirror's own observer token as
///   originator, so the mirror never hears it and never sends it back (PROTOCOL.md E6);
/// - while the user holds a parameter, and for a moment after the mirror sent a value, the
///   server's values for it are held and the latest applied afterwards
///   (``RemoteTreeOptions/feedbackGuard``), so that an echo of an older value does not pull a
///   knob back;
/// - a server that stops answering is ``RemoteTreeState/lost``; when it answers again, or when
///   it restarted on the same port (its `/sys/stats` counters went down), the tree is read anew
///   and the subscription made again. A tree with the same structure keeps the same
///   `ParameterTree` object; a different one replaces it (``RemoteTreeEvent/treeReplaced(_:)``).
///
/// ```swift
/// let remote = try await RemoteParameterTree.connect(to: OSCURL.parse("osc.udp://127.0.0.1:8000/"))
/// remote.tree.parameter(forKeyPath: "knob.gain")?.setValue(-6)   // the server's gain is -6 dB
/// ```
///
/// Over UDP the mirror listens on a socket of its own (port 0) and names it in every request;
/// over TCP everything travels on the connection, and a closed connection is a lost server,
/// reconnected every ``RemoteTreeOptions/keepAliveInterval``.
///
/// ``connect(to:options:onEvent:)-(RemoteServer,_,_)`` with ``RemoteServer/oscQuery(host:port:)``
/// reads any OSCQuery server instead: its namespace (`GET /`) becomes the tree and its WebSocket
/// carries the values both ways (see `Docs/OSCQUERY.md`, "The mirror").
public final class RemoteParameterTree: Sendable {
    /// The server.
    public let server: RemoteServer
    private let session: any RemoteMirrorSession

    private init(server: RemoteServer, session: any RemoteMirrorSession) {
        self.server = server
        self.session = session
    }

    deinit {
        session.close()
    }

    /// Connects to a server and mirrors its tree.
    ///
    /// Suspends (without blocking a thread) until the tree has been read and the subscription's
    /// current values applied, or until a step fails; each step has ``RemoteTreeOptions/timeout``.
    /// - Parameters:
    ///   - url: `osc.udp://host:port/` or `osc.tcp://host:port/`.
    ///   - options: timeouts, keep-alive, limits.
    ///   - onEvent: told of state changes and tree replacements, on the mirror's queue; it must
    ///     not block.
    /// - Returns: the mirror, synced.
    /// - Throws: ``RemoteTreeError``: the host does not resolve, the server is not reachable or
    ///   does not answer, it is not a KnobLink server, or its list is incomplete or cannot be a tree.
    public static func connect(
        to url: OSCURL, options: RemoteTreeOptions = RemoteTreeOptions(),
        onEvent: @escaping @Sendable (RemoteTreeEvent) -> Void = { _ in }
    ) async throws(RemoteTreeError) -> RemoteParameterTree {
        try await connect(to: .osc(url), options: options, onEvent: onEvent)
    }

    /// Connects to a KnobLink server over OSC, or to any OSCQuery server, and mirrors its tree.
    ///
    /// As ``connect(to:options:onEvent:)-(OSCURL,_,_)``; for an OSCQuery server the steps are
    /// `GET /?HOST_INFO`, `GET /` and the WebSocket's opening, each with
    /// ``RemoteTreeOptions/timeout``.
    public static func connect(
        to server: RemoteServer, options: RemoteTreeOptions = RemoteTreeOptions(),
        onEvent: @escaping @Sendable (RemoteTreeEvent) -> Void = { _ in }
    ) async throws(RemoteTreeError) -> RemoteParameterTree {
        let session: any RemoteMirrorSession =
            switch server {
            case .osc(let url): RemoteSession(url: url, options: options, onEvent: onEvent)
            case .oscQuery(let host, let port):
                OSCQuerySession(host: host, port: port, options: options, onEvent: onEvent)
            }
        let result = await withCheckedContinuation { continuation in
            session.start { continuation.resume(returning: $0) }
        }
        switch result {
        case .success: return RemoteParameterTree(server: server, session: session)
        case .failure(let error): throw error
        }
    }

    /// The mirrored tree: the one read last from the server.
    public var tree: ParameterTree {
        // Set before `connect` returns, and only ever replaced by another tree.
        session.withShared { $0.tree! }
    }

    /// Where the mirror stands with the server.
    public var state: RemoteTreeState { session.withShared { $0.state } }

    /// The server's name, from its `/sys/pong` (OSCQuery: its `HOST_INFO`'s `NAME`).
    public var serverName: String { session.withShared { $0.serverName } }

    /// The server's waveform stream, once the mirror's `/wave/sub` has been answered: its
    /// source's bars and the playhead. ``RemoteTreeEvent/waveChanged`` says when it changes.
    public var wave: RemoteWave? { session.withShared { $0.wave } }

    /// Whether the server has a waveform stream (``wave``): every KnobLink server, over OSC or
    /// OSCQuery; no other OSCQuery server.
    public var offersWave: Bool { session.withShared { $0.offersWave } }

    /// Plays (`true`) or pauses the server's waveform stream, as `/wave/play` and `/wave/pause` do.
    public func setWavePlaying(_ playing: Bool) {
        session.setWavePlaying(playing)
    }

    /// Moves the server's playhead to `progress` (0…1, clamped), as `/wave/progress f` does.
    public func seekWave(to progress: Double) {
        session.seekWave(to: progress)
    }

    /// The traffic so far.
    public var statistics: RemoteTreeStatistics { session.withShared { $0.statistics } }

    /// Stops following the server: no packet is sent or applied after this returns. The tree
    /// keeps its last values. Called on deinitialisation too.
    public func close() {
        session.close()
    }
}
