import Controls

/// The terminal colours of a `Theme`: its six colours, and a screen background of its scheme
/// (the theme has none; the terminal surface paints one so that the light theme is light on a
/// dark terminal too).
public struct SurfacePalette: Sendable, Equatable {
    /// The screen.
    public var background: TerminalColor
    /// The value arc, the played bars, a toggle that is on.
    public var foreground: TerminalColor
    /// The track, the unplayed bars, a toggle that is off.
    public var track: TerminalColor
    /// Titles and text.
    public var text: TerminalColor
    /// The editor's and the status line's background.
    public var panel: TerminalColor
    /// The editor's OK.
    public var ok: TerminalColor
    /// The editor's Cancel.
    public var cancel: TerminalColor

    /// The palette of `theme`.
    public init(theme: Theme) {
        background =
            theme.colorScheme == .dark
            ? TerminalColor(red: 24, green: 24, blue: 27) : TerminalColor(red: 250, green: 250, blue: 250)
        foreground = Self.color(theme.controlForegroundColor)
        track = Self.color(theme.controlBackgroundColor)
        text = Self.color(theme.textColor)
        panel = Self.color(theme.editorBackgroundColor)
        ok = Self.color(theme.editorOKButtonColor)
        cancel = Self.color(theme.editorCancelButtonColor)
    }

    /// A theme colour as 8-bit red, green and blue (alpha is dropped).
    public static func color(_ color: RGBAColor) -> TerminalColor {
        let components = color.components8
        return TerminalColor(red: components.red, green: components.green, blue: components.blue)
    }
}
