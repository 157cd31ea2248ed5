/// One argument of an OSC message, owning its value.
///
/// The cases follow the OSC 1.0 and 1.1 type tags: `i f s b` are required by OSC 1.0, the others
/// are the optional types that liblo and most peers understand. An array (`[` … `]`) holds its
/// elements, which may be arrays again.
public enum OSCArgument: Sendable, Hashable {
    /// `i`: a 32-bit big-endian two's complement integer.
    case int32(Int32)
    /// `f`: a 32-bit big-endian IEEE 754 float.
    case float32(Float)
    /// `s`: a string, written as UTF-8 up to its first NUL, then NUL-padded to a multiple of 4.
    case string(String)
    /// `b`: a blob, written as an int32 size, the bytes, and zero padding to a multiple of 4.
    case blob([UInt8])
    /// `T`: true, with no data bytes.
    case `true`
    /// `F`: false, with no data bytes.
    case `false`
    /// `N`: nil, with no data bytes.
    case `nil`
    /// `I`: impulse (OSC 1.1; "infinitum" in OSC 1.0), with no data bytes.
    case impulse
    /// `t`: an NTP time tag, 8 bytes.
    case timeTag(OSCTimeTag)
    /// `h`: a 64-bit big-endian two's complement integer.
    case int64(Int64)
    /// `d`: a 64-bit big-endian IEEE 754 double.
    case double(Double)
    /// `S`: a symbol, written like a string.
    case symbol(String)
    /// `c`: an ASCII character, written as a 32-bit integer.
    case character(UInt8)
    /// `r`: a 32-bit RGBA colour.
    case rgba(OSCRGBA)
    /// `m`: a 4-byte MIDI message.
    case midi(OSCMIDI)
    /// `[` … `]`: an array of arguments, which may nest.
    case array([OSCArgument])

    /// The argument's type tag character; `[` for an array.
    public var typeTag: UInt8 {
        switch self {
        case .int32: OSCTypeTag.int32
        case .float32: OSCTypeTag.float32
        case .string: OSCTypeTag.string
        case .blob: OSCTypeTag.blob
        case .true: OSCTypeTag.true
        case .false: OSCTypeTag.false
        case .nil: OSCTypeTag.nil
        case .impulse: OSCTypeTag.impulse
        case .timeTag: OSCTypeTag.timeTag
        case .int64: OSCTypeTag.int64
        case .double: OSCTypeTag.double
        case .symbol: OSCTypeTag.symbol
        case .character: OSCTypeTag.character
        case .rgba: OSCTypeTag.rgba
        case .midi: OSCTypeTag.midi
        case .array: OSCTypeTag.arrayStart
        }
    }
}
