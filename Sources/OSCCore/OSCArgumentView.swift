/// One argument of a decoded message, read in place from the packet's bytes.
///
/// Like ``OSCMessageView`` it does not own its bytes: use it only while the buffer that was
/// decoded is alive. The getters coerce between numeric types the way liblo's dispatch does
/// (within `i h f d`, with `T`/`F` as 1/0) and return `nil` when the type cannot be read as asked.
public struct OSCArgumentView {
    /// Where the argument's data starts.
    @usableFromInline let start: UnsafeRawPointer
    /// The data's byte count shifted left by 8, with the type tag in the low byte: the view stays
    /// three words long, small enough to be returned in registers.
    @usableFromInline let packed: UInt
    /// For an array, its first element tag (just after the `[`).
    @usableFromInline let tags: UnsafeRawPointer?

    @inlinable
    init(typeTag: UInt8, start: UnsafeRawPointer, count: Int, tags: UnsafeRawPointer?) {
        self.start = start
        self.packed = UInt(bitPattern: count) << 8 | UInt(typeTag)
        self.tags = tags
    }

    /// The argument's type tag character (`[` for an array).
    @inlinable
    public var typeTag: UInt8 { UInt8(truncatingIfNeeded: packed) }

    /// The argument's data: the 4 or 8 value bytes of a fixed-size type, the string's bytes
    /// without its NUL, the blob's content without size or padding, nothing for `T F N I`, and
    /// for an array the encoded data of all its elements.
    @inlinable
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start, count: Int(bitPattern: packed >> 8))
    }

    /// For an array, the type tags between its `[` and `]`; empty otherwise.
    public var elementTags: UnsafeRawBufferPointer {
        guard let tags else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        var depth = 0
        var index = 0
        while true {
            let tag = tags.load(fromByteOffset: index, as: UInt8.self)
            if tag == OSCTypeTag.arrayEnd {
                if depth == 0 {
                    return UnsafeRawBufferPointer(start: tags, count: index)
                }
                depth -= 1
            } else if tag == OSCTypeTag.arrayStart {
                depth += 1
            }
            index += 1
        }
    }

    @inlinable
    var base: UnsafeRawPointer { start }

    /// The elements of an array argument, or an empty sequence for any other type.
    public var elements: OSCArgumentSequence {
        OSCArgumentSequence(tags: elementTags, data: tags == nil ? nil : start)
    }

    /// The value as an `Int32`, from `i`, `h` (clamped), `f` and `d` (truncated toward zero,
    /// clamped; `nil` for NaN), `T` (1) or `F` (0).
    @inlinable @inline(__always)
    public var int32: Int32? {
        switch typeTag {
        case OSCTypeTag.int32: OSCWire.loadInt32(base, 0)
        case OSCTypeTag.int64: Int32(clamping: Int64(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.float32: Self.clampToInt32(Double(Float(bitPattern: OSCWire.loadUInt32(base, 0))))
        case OSCTypeTag.double: Self.clampToInt32(Double(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.true: 1
        case OSCTypeTag.false: 0
        default: nil
        }
    }

    /// The value as an `Int64`, from `i`, `h`, `f` and `d` (truncated toward zero, clamped; `nil`
    /// for NaN), `T` (1) or `F` (0).
    @inlinable @inline(__always)
    public var int64: Int64? {
        switch typeTag {
        case OSCTypeTag.int32: Int64(OSCWire.loadInt32(base, 0))
        case OSCTypeTag.int64: Int64(bitPattern: OSCWire.loadUInt64(base, 0))
        case OSCTypeTag.float32: Self.clampToInt64(Double(Float(bitPattern: OSCWire.loadUInt32(base, 0))))
        case OSCTypeTag.double: Self.clampToInt64(Double(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.true: 1
        case OSCTypeTag.false: 0
        default: nil
        }
    }

    /// The value as a `Float`, from `f`, `i`, `h`, `d` (rounded to the nearest `Float`), `T` (1)
    /// or `F` (0).
    @inlinable @inline(__always)
    public var float: Float? {
        switch typeTag {
        case OSCTypeTag.float32: Float(bitPattern: OSCWire.loadUInt32(base, 0))
        case OSCTypeTag.int32: Float(OSCWire.loadInt32(base, 0))
        case OSCTypeTag.int64: Float(Int64(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.double: Float(Double(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.true: 1
        case OSCTypeTag.false: 0
        default: nil
        }
    }

    /// The value as a `Double`, from `d`, `f`, `i`, `h` (rounded to the nearest `Double`), `T` (1)
    /// or `F` (0).
    @inlinable @inline(__always)
    public var double: Double? {
        switch typeTag {
        case OSCTypeTag.double: Double(bitPattern: OSCWire.loadUInt64(base, 0))
        case OSCTypeTag.float32: Double(Float(bitPattern: OSCWire.loadUInt32(base, 0)))
        case OSCTypeTag.int32: Double(OSCWire.loadInt32(base, 0))
        case OSCTypeTag.int64: Double(Int64(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.true: 1
        case OSCTypeTag.false: 0
        default: nil
        }
    }

    /// The value as a `Bool`: `T` and `F`, or a number (`i h f d`) compared with zero.
    @inlinable
    public var bool: Bool? {
        switch typeTag {
        case OSCTypeTag.true: true
        case OSCTypeTag.false: false
        case OSCTypeTag.int32, OSCTypeTag.int64, OSCTypeTag.float32, OSCTypeTag.double: double.map { $0 != 0 }
        default: nil
        }
    }

    /// The bytes of an `s` or `S` argument, without the NUL.
    @inlinable
    public var stringBytes: UnsafeRawBufferPointer? {
        typeTag == OSCTypeTag.string || typeTag == OSCTypeTag.symbol ? bytes : nil
    }

    /// The text of an `s` or `S` argument (invalid UTF-8 is repaired with U+FFFD).
    public var string: String? {
        stringBytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The content of a `b` argument, in place.
    @inlinable
    public var blob: UnsafeRawBufferPointer? {
        typeTag == OSCTypeTag.blob ? bytes : nil
    }

    /// The value of a `t` argument.
    @inlinable
    public var timeTag: OSCTimeTag? {
        typeTag == OSCTypeTag.timeTag ? OSCTimeTag(rawValue: OSCWire.loadUInt64(base, 0)) : nil
    }

    /// The character of a `c` argument (the low byte of its 32-bit word).
    @inlinable
    public var character: UInt8? {
        typeTag == OSCTypeTag.character ? UInt8(truncatingIfNeeded: OSCWire.loadUInt32(base, 0)) : nil
    }

    /// The colour of an `r` argument.
    @inlinable
    public var rgba: OSCRGBA? {
        typeTag == OSCTypeTag.rgba ? OSCRGBA(rawValue: OSCWire.loadUInt32(base, 0)) : nil
    }

    /// The MIDI message of an `m` argument.
    @inlinable
    public var midi: OSCMIDI? {
        typeTag == OSCTypeTag.midi ? OSCMIDI(rawValue: OSCWire.loadUInt32(base, 0)) : nil
    }

    /// The argument as an owned value (copies strings, blobs and arrays).
    @inlinable
    public func makeArgument() -> OSCArgument {
        switch typeTag {
        case OSCTypeTag.int32: .int32(OSCWire.loadInt32(base, 0))
        case OSCTypeTag.float32: .float32(Float(bitPattern: OSCWire.loadUInt32(base, 0)))
        case OSCTypeTag.string: .string(String(decoding: bytes, as: UTF8.self))
        case OSCTypeTag.blob: .blob(Self.copyBlob(bytes))
        case OSCTypeTag.true: .true
        case OSCTypeTag.false: .false
        case OSCTypeTag.impulse: .impulse
        case OSCTypeTag.timeTag: .timeTag(OSCTimeTag(rawValue: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.int64: .int64(Int64(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.double: .double(Double(bitPattern: OSCWire.loadUInt64(base, 0)))
        case OSCTypeTag.symbol: .symbol(String(decoding: bytes, as: UTF8.self))
        case OSCTypeTag.character: .character(UInt8(truncatingIfNeeded: OSCWire.loadUInt32(base, 0)))
        case OSCTypeTag.rgba: .rgba(OSCRGBA(rawValue: OSCWire.loadUInt32(base, 0)))
        case OSCTypeTag.midi: .midi(OSCMIDI(rawValue: OSCWire.loadUInt32(base, 0)))
        case OSCTypeTag.arrayStart: .array(makeElements())
        default: .nil
        }
    }

    /// The elements of an array argument as owned values; out of line, as it recurses.
    @usableFromInline
    func makeElements() -> [OSCArgument] {
        var elements: [OSCArgument] = []
        for element in self.elements {
            elements.append(element.makeArgument())
        }
        return elements
    }

    /// A blob's bytes in a new array.
    ///
    /// `Array(_:)` is specialised for raw bytes; `Array(unsafeUninitializedCapacity:)` went through
    /// the standard library's generic path, which looks up type metadata on every call.
    @usableFromInline
    static func copyBlob(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        Array(bytes)
    }

    @usableFromInline
    static func clampToInt32(_ value: Double) -> Int32? {
        if value.isNaN { return nil }
        if value >= 2_147_483_647 { return .max }
        if value <= -2_147_483_648 { return .min }
        return Int32(value)
    }

    @usableFromInline
    static func clampToInt64(_ value: Double) -> Int64? {
        if value.isNaN { return nil }
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value)
    }
}
