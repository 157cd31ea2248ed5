/// The escape sequences that put a terminal into the surface's modes and back.
public enum TerminalModes {
    /// Alternate screen, hidden cursor, SGR mouse reporting with button-event tracking (modes
    /// 1049, 25, 1000, 1002, 1006).
    public static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[2J"
    /// The reverse of ``enter``: mouse modes off, cursor shown, attributes reset, main screen.
    public static let leave = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
}
