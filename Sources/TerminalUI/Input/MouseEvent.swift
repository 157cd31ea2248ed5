/// A mouse report in SGR form (`ESC[<b;x;yM` or `…m`), with the cell made 0-based.
public struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    public enum Kind: Sendable, Hashable {
        /// A button went down.
        case press
        /// A button went up.
        case release
        /// The mouse moved with a button down (mode 1002).
        case drag
        /// The wheel turned up (away from the user).
        case wheelUp
        /// The wheel turned down.
        case wheelDown
    }

    /// What happened.
    public var kind: Kind
    /// The button: 0 left, 1 middle, 2 right (for wheel events, 0).
    public var button: Int
    /// The column, from 0.
    public var x: Int
    /// The row, from 0.
    public var y: Int
    /// Shift was held.
    public var shift: Bool

    /// Creates a mouse event.
    public init(kind: Kind, button: Int = 0, x: Int, y: Int, shift: Bool = false) {
        self.kind = kind
        self.button = button
        self.x = x
        self.y = y
        self.shift = shift
    }
}
