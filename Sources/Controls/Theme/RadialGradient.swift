/// A radial gradient description: colours spread evenly from one radius to another.
public struct RadialGradient: Sendable, Hashable {
    /// The colours from the start radius outwards.
    public var colors: [RGBAColor]
    /// Where the first colour sits.
    public var startRadius: Double
    /// Where the last colour sits.
    public var endRadius: Double

    /// Creates a gradient.
    public init(colors: [RGBAColor], startRadius: Double, endRadius: Double) {
        self.colors = colors
        self.startRadius = startRadius
        self.endRadius = endRadius
    }
}
