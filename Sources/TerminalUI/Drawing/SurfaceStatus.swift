/// What the status line says about the server: its name and how many peers it has.
public struct SurfaceStatus: Sendable, Equatable {
    /// The server's name.
    public var name: String
    /// The peers (subscribers and connections), or `nil` when unknown.
    public var peerCount: Int?
    /// Whether the surface is connected (a remote surface can lose its server).
    public var isConnected: Bool

    /// Creates a status.
    public init(name: String, peerCount: Int? = nil, isConnected: Bool = true) {
        self.name = name
        self.peerCount = peerCount
        self.isConnected = isConnected
    }
}
