/// One thing the terminal reported: a key or a mouse event.
public enum InputEvent: Sendable, Hashable {
    /// A key.
    case key(Key)
    /// A mouse event.
    case mouse(MouseEvent)
}
