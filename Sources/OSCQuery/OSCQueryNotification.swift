/// A message the server sends WebSocket clients when the namespace changes (a tree reload).
///
/// The shapes are libossia's, which the proposal's third revision describes: `PATH_ADDED`
/// carries the new node's JSON (a client needs its attributes, not only its path), `PATH_REMOVED`
/// and `PATH_CHANGED` a path string: `{"COMMAND":"PATH_REMOVED","DATA":"/knob/gain"}`.
public enum OSCQueryNotification: Sendable, Hashable {
    /// The node at the path is new; written with its JSON from the new namespace.
    case pathAdded(String)
    /// The node at the path, and everything below it, is gone.
    case pathRemoved(String)
    /// Something at or below the path changed: read it again (`"/"`: the whole namespace).
    case pathChanged(String)

    /// `PATH_ADDED`, `PATH_REMOVED` or `PATH_CHANGED`.
    public var command: String {
        switch self {
        case .pathAdded: "PATH_ADDED"
        case .pathRemoved: "PATH_REMOVED"
        case .pathChanged: "PATH_CHANGED"
        }
    }

    /// The path the notification is about.
    public var path: String {
        switch self {
        case .pathAdded(let path), .pathRemoved(let path), .pathChanged(let path): path
        }
    }
}

extension OSCQueryNamespace {
    /// The text frame of `notification`: `{"COMMAND":…,"DATA":…}`.
    ///
    /// A `PATH_ADDED` takes the node's JSON, with its current values, from this namespace (the new
    /// one); a path this namespace does not have is written as a string.
    public func text(of notification: OSCQueryNotification) -> String {
        var writer = OSCQueryJSONWriter()
        writer.writeRaw("{\"COMMAND\":")
        writer.write(string: notification.command)
        writer.writeRaw(",\"DATA\":")
        if case .pathAdded(let path) = notification, let index = nodeIndex(for: path) {
            render(bytes: nodes[index].bytes, slots: nodes[index].slots, into: &writer)
        } else {
            writer.write(string: notification.path)
        }
        writer.writeRaw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
