/// A key a person pressed, as the terminal reports it.
public enum Key: Sendable, Hashable {
    /// A printable character (`h`, `H`, `0`, `?`, space).
    case character(Character)
    /// An arrow key; `shift` when the terminal reported Shift with it.
    case up(shift: Bool), down(shift: Bool), left(shift: Bool), right(shift: Bool)
    /// Page Up and Page Down.
    case pageUp, pageDown
    /// Home and End.
    case home, end
    /// Tab and Shift-Tab.
    case tab, backTab
    /// Return (or Enter).
    case enter
    /// Escape on its own.
    case escape
    /// Backspace (DEL or ^H).
    case backspace
    /// Delete (the forward delete key).
    case delete
    /// Ctrl and a letter (`c` for Ctrl-C), other than Tab, Return and Backspace.
    case control(Character)
}
