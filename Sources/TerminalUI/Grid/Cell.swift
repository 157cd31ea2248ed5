/// One character cell of the screen: a character and how it is drawn.
public struct Cell: Sendable, Hashable {
    /// The character (one column wide).
    public var character: Character
    /// The text colour, or `nil` for the terminal's default.
    public var foreground: TerminalColor?
    /// The background colour, or `nil` for the terminal's default.
    public var background: TerminalColor?
    /// Bold text.
    public var bold: Bool
    /// Reverse video (foreground and background swapped): the focus without colours.
    public var reverse: Bool
    /// Dim (faint) text: read-only controls.
    public var dim: Bool

    /// Creates a cell.
    public init(
        _ character: Character = " ", foreground: TerminalColor? = nil, background: TerminalColor? = nil,
        bold: Bool = false, reverse: Bool = false, dim: Bool = false
    ) {
        self.character = character
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
    }

    /// An empty cell in the terminal's default colours.
    public static let blank = Cell()

    /// Whether two cells look the same except for the character.
    func sameStyle(as other: Cell) -> Bool {
        foreground == other.foreground && background == other.background && bold == other.bold
            && reverse == other.reverse && dim == other.dim
    }
}
