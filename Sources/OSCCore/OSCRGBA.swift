/// A 32-bit RGBA colour, the OSC `r` type: one byte per channel, red first on the wire.
public struct OSCRGBA: Sendable, Hashable {
    /// The red channel.
    public var red: UInt8
    /// The green channel.
    public var green: UInt8
    /// The blue channel.
    public var blue: UInt8
    /// The alpha channel.
    public var alpha: UInt8

    /// Creates a colour from its four channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The colour as the big-endian 32-bit word that the wire carries (`0xRRGGBBAA`).
    public var rawValue: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }

    /// Creates a colour from the wire's 32-bit word (`0xRRGGBBAA`).
    public init(rawValue: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: rawValue >> 24),
            green: UInt8(truncatingIfNeeded: rawValue >> 16),
            blue: UInt8(truncatingIfNeeded: rawValue >> 8),
            alpha: UInt8(truncatingIfNeeded: rawValue))
    }
}
