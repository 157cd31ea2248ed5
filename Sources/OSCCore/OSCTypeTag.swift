/// The type tag characters of OSC 1.0 and 1.1, as bytes.
///
/// Use these to compare against ``OSCMessageView/typeTags`` or ``OSCArgumentView/typeTag``
/// without spelling `UInt8(ascii:)` each time. They are computed, inlinable constants rather than
/// stored `static let`s, so that a `switch` over them compiles to a jump table instead of calling
/// a lazy-initialisation accessor per case.
public enum OSCTypeTag {
    /// `i`
    @inlinable public static var int32: UInt8 { 0x69 }
    /// `f`
    @inlinable public static var float32: UInt8 { 0x66 }
    /// `s`
    @inlinable public static var string: UInt8 { 0x73 }
    /// `b`
    @inlinable public static var blob: UInt8 { 0x62 }
    /// `T`
    @inlinable public static var `true`: UInt8 { 0x54 }
    /// `F`
    @inlinable public static var `false`: UInt8 { 0x46 }
    /// `N`
    @inlinable public static var `nil`: UInt8 { 0x4E }
    /// `I`
    @inlinable public static var impulse: UInt8 { 0x49 }
    /// `t`
    @inlinable public static var timeTag: UInt8 { 0x74 }
    /// `h`
    @inlinable public static var int64: UInt8 { 0x68 }
    /// `d`
    @inlinable public static var double: UInt8 { 0x64 }
    /// `S`
    @inlinable public static var symbol: UInt8 { 0x53 }
    /// `c`
    @inlinable public static var character: UInt8 { 0x63 }
    /// `r`
    @inlinable public static var rgba: UInt8 { 0x72 }
    /// `m`
    @inlinable public static var midi: UInt8 { 0x6D }
    /// `[`
    @inlinable public static var arrayStart: UInt8 { 0x5B }
    /// `]`
    @inlinable public static var arrayEnd: UInt8 { 0x5D }
}
