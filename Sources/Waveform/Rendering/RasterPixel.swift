import Controls

/// One pixel of a ``RasterCanvas``: 8-bit red, green, blue and straight (not premultiplied)
/// alpha, as PNG stores them.
public struct RasterPixel: Sendable, Hashable {
    /// The red channel.
    public var red: UInt8
    /// The green channel.
    public var green: UInt8
    /// The blue channel.
    public var blue: UInt8
    /// The opacity.
    public var alpha: UInt8

    /// Creates a pixel.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour rounded to 8 bits per channel.
    public init(_ color: RGBAColor) {
        let bytes = color.components8
        self.init(red: bytes.red, green: bytes.green, blue: bytes.blue, alpha: bytes.alpha)
    }

    /// Fully transparent black, what an empty canvas holds.
    public static let clear = RasterPixel(red: 0, green: 0, blue: 0, alpha: 0)
}
