import Locking
import OSCCore
import Parameters

/// What a mirror's session shares with the threads of its owner, behind its lock.
struct RemoteShared {
    var tree: ParameterTree?
    var state = RemoteTreeState.resyncing
    var statistics = RemoteTreeStatistics()
    var serverName = ""
    /// The waveform stream, once its first message came.
    var wave: RemoteWave?
    /// Whether the server has a waveform stream to subscribe to: every KnobLink server does.
    var offersWave = true
}

extension Locked where Value == RemoteShared {
    /// Sets the state; returns whether it changed (and the owner is to be told).
    func change(to state: RemoteTreeState) -> Bool {
        withLock { shared -> Bool in
            defer { shared.state = state }
            return shared.state != state
        }
    }
}

/// A mirror's engine, as its ``RemoteParameterTree`` uses it: one for KnobLink's OSC
/// (``RemoteSession``), one for OSCQuery (``OSCQuerySession``).
protocol RemoteMirrorSession: AnyObject, Sendable {
    /// Reads the tree; `completion` gets it or the first error, once, on the session's queue.
    func start(_ completion: @escaping @Sendable (Result<ParameterTree, RemoteTreeError>) -> Void)
    /// Stops everything: nothing is sent or applied after this returns.
    func close()
    /// Plays or pauses the server's waveform stream.
    func setWavePlaying(_ playing: Bool)
    /// Seeks the server's waveform stream.
    func seekWave(to progress: Double)
    /// Reads what the session shares, under its lock.
    func withShared<T>(_ body: (RemoteShared) -> T) -> T
}

extension RemoteSession {
    func withShared<T>(_ body: (RemoteShared) -> T) -> T { shared.withLock { body($0) } }
}

extension OSCQuerySession {
    func withShared<T>(_ body: (RemoteShared) -> T) -> T { shared.withLock { body($0) } }
}

extension OSCPacket {
    /// The packet's messages, those of nested bundles included, in order.
    var allMessages: [OSCMessage] {
        switch self {
        case .message(let message): [message]
        case .bundle(let bundle): bundle.elements.flatMap(\.allMessages)
        }
    }
}

extension OSCArgument {
    /// The argument as a parameter value: numbers, and `T`/`F` as 1 and 0; `nil` for the rest.
    static func number(_ argument: OSCArgument) -> ParameterValue? {
        switch argument {
        case .float32(let value): value
        case .double(let value): ParameterValue(value)
        case .int32(let value): ParameterValue(value)
        case .true: 1
        case .false: 0
        default: nil
        }
    }
}
