/// How many colours the terminal is given (SURFACES.md §5).
public enum ColorMode: Sendable, Hashable {
    /// 24-bit colour (`COLORTERM` is `truecolor` or `24bit`).
    case trueColor
    /// The nearest of xterm's 256 colours.
    case palette256
    /// No colour at all (`NO_COLOR` is set): focus is shown by reverse video.
    case none

    /// The mode that an environment asks for: `NO_COLOR` (any value, even empty) wins, then
    /// `COLORTERM`.
    public init(environment: [String: String]) {
        if environment["NO_COLOR"] != nil {
            self = .none
        } else if let colorTerm = environment["COLORTERM"]?.lowercased(), ["truecolor", "24bit"].contains(colorTerm) {
            self = .trueColor
        } else {
            self = .palette256
        }
    }

    /// The SGR parameters that select `color` as the foreground (`background` false) or the
    /// background, or `nil` in ``none`` mode.
    public func sgrParameters(_ color: TerminalColor, background: Bool) -> String? {
        let base = background ? 48 : 38
        switch self {
        case .trueColor: return "\(base);2;\(color.red);\(color.green);\(color.blue)"
        case .palette256: return "\(base);5;\(color.palette256Index)"
        case .none: return nil
        }
    }
}
