/// Light or dark appearance.
public enum ColorScheme: String, Sendable, Hashable, CaseIterable {
    /// Dark content on a light background.
    case light
    /// Light content on a dark background.
    case dark
}
