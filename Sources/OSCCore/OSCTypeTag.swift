/// The type tag characters of OSC 1.0 and 1.1, as bytes.
///
/// Use these to compare against ``OSCMessageView/typeTags`` or ``OSCArgumentView/typeTag``
/// without spelling `UInt8(ascii:)` each time.
public enum OSCTypeTag {
    /// `i`
    public static let int32 = UInt8(ascii: "i")
    /// `f`
    public static let float32 = UInt8(ascii: "f")
    /// `s`
    public static let string = UInt8(ascii: "s")
    /// `b`
    public static let blob = UInt8(ascii: "b")
    /// `T`
    public static let `true` = UInt8(ascii: "T")
    /// `F`
    public static let `false` = UInt8(ascii: "F")
    /// `N`
    public static let `nil` = UInt8(ascii: "N")
    /// `I`
    public static let impulse = UInt8(ascii: "I")
    /// `t`
    public static let timeTag = UInt8(ascii: "t")
    /// `h`
    public static let int64 = UInt8(ascii: "h")
    /// `d`
    public static let double = UInt8(ascii: "d")
    /// `S`
    public static let symbol = UInt8(ascii: "S")
    /// `c`
    public static let character = UInt8(ascii: "c")
    /// `r`
    public static let rgba = UInt8(ascii: "r")
    /// `m`
    public static let midi = UInt8(ascii: "m")
    /// `[`
    public static let arrayStart = UInt8(ascii: "[")
    /// `]`
    public static let arrayEnd = UInt8(ascii: "]")
}
