/// The font of titles and labels: a text style name and the size it stands for.
public struct ThemeFont: Sendable, Hashable {
    /// The text style (`"callout"`) or family name.
    public var name: String
    /// The size in points.
    public var size: Double

    /// Creates a font.
    public init(name: String, size: Double) {
        self.name = name
        self.size = size
    }

    /// Apple's callout text style, 16 pt.
    public static let callout = ThemeFont(name: "callout", size: 16)
}
