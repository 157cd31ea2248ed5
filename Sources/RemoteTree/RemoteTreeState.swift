/// Where a ``RemoteParameterTree`` stands with its server.
public enum RemoteTreeState: Sendable, Hashable {
    /// The tree mirrors the server and follows its changes.
    case synced
    /// The server stopped answering (or closed the connection); local changes are not sent
    /// until it is back and the tree has been read again.
    case lost
    /// The server answers again (or restarted): its tree and values are being read.
    case resyncing
}
