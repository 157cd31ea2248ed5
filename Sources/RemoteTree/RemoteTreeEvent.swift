import Parameters

/// What a ``RemoteParameterTree`` tells its owner, on its own queue.
public enum RemoteTreeEvent: Sendable {
    /// The connection's state changed.
    case stateChanged(RemoteTreeState)
    /// The server came back with a different tree: ``RemoteParameterTree/tree`` is now this
    /// one, and the old tree no longer follows the server. Controls bound to the old tree must
    /// be rebuilt on the new one.
    case treeReplaced(ParameterTree)
    /// The server's waveform stream changed: new bars, a play or pause, a playhead update
    /// (``RemoteParameterTree/wave``).
    case waveChanged
}
