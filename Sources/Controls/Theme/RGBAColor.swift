/// A colour in sRGB with alpha, each channel in `0…1`.
public struct RGBAColor: Sendable, Hashable {
    /// The red channel.
    public var red: Double
    /// The green channel.
    public var green: Double
    /// The blue channel.
    public var blue: Double
    /// The opacity.
    public var alpha: Double

    /// Creates a colour from channels in `0…1`.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates a colour from 8-bit channels.
    public init(red8 red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.init(
            red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255, alpha: Double(alpha) / 255)
    }

    /// This colour moved towards `other` by `fraction`: per channel `a·(1−f) + b·f`, keeping this
    /// colour's alpha.
    public func mixed(with other: RGBAColor, by fraction: Double) -> RGBAColor {
        func mix(_ a: Double, _ b: Double) -> Double { a * (1 - fraction) + b * fraction }
        return RGBAColor(
            red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue), alpha: alpha)
    }

    /// The channels rounded to 8 bits.
    public var components8: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        func byte(_ value: Double) -> UInt8 { UInt8((value.clamped(to: 0...1) * 255).rounded()) }
        return (byte(red), byte(green), byte(blue), byte(alpha))
    }

    /// `#RRGGBB` in upper-case hexadecimal, without the alpha.
    public var hexRGB: String {
        let bytes = components8
        return "#"
            + [bytes.red, bytes.green, bytes.blue].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    /// White.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    /// Black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Apple's system gray, (142, 142, 147).
    public static let systemGray = RGBAColor(red8: 142, green: 142, blue: 147)
    /// Apple's system orange, (255, 149, 0).
    public static let systemOrange = RGBAColor(red8: 255, green: 149, blue: 0)
    /// Apple's system red, (255, 59, 48).
    public static let systemRed = RGBAColor(red8: 255, green: 59, blue: 48)
}
