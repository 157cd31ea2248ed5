extension OSCMessageView {
    /// Where the data of the first argument starts, if `index` is 0 and that argument's tag is
    /// exactly `tag`: the common case of a handler reading its first argument, done inline
    /// without a call.
    @inlinable @inline(__always)
    func firstArgumentData(ifTagged tag: UInt8, at index: Int) -> UnsafeRawPointer? {
        guard index == 0 && tagsLength != 0 && base.load(fromByteOffset: tagsStart, as: UInt8.self) == tag else {
            return nil
        }
        return base + argumentsStart
    }

    /// The type tag of the argument at `index` (`[` for an array), or `nil` if out of range.
    @inlinable
    public func typeTag(at index: Int) -> UInt8? {
        argument(at: index)?.typeTag
    }

    /// The argument at `index` as an `Int32`; see ``OSCArgumentView/int32`` for the coercions.
    @inlinable @inline(__always)
    public func int32(at index: Int) -> Int32? {
        if let data = firstArgumentData(ifTagged: OSCTypeTag.int32, at: index) {
            return OSCWire.loadInt32(data, 0)
        }
        return argument(at: index)?.int32
    }

    /// The argument at `index` as an `Int64`; see ``OSCArgumentView/int64`` for the coercions.
    @inlinable @inline(__always)
    public func int64(at index: Int) -> Int64? {
        if let data = firstArgumentData(ifTagged: OSCTypeTag.int64, at: index) {
            return Int64(bitPattern: OSCWire.loadUInt64(data, 0))
        }
        return argument(at: index)?.int64
    }

    /// The argument at `index` as a `Float` (from `f i h d T F`).
    @inlinable @inline(__always)
    public func float(at index: Int) -> Float? {
        if let data = firstArgumentData(ifTagged: OSCTypeTag.float32, at: index) {
            return Float(bitPattern: OSCWire.loadUInt32(data, 0))
        }
        return argument(at: index)?.float
    }

    /// The argument at `index` as a `Double` (from `d f i h T F`).
    @inlinable @inline(__always)
    public func double(at index: Int) -> Double? {
        if let data = firstArgumentData(ifTagged: OSCTypeTag.double, at: index) {
            return Double(bitPattern: OSCWire.loadUInt64(data, 0))
        }
        return argument(at: index)?.double
    }

    /// The argument at `index` as a `Bool` (from `T F`, or a number compared with zero).
    @inlinable
    public func bool(at index: Int) -> Bool? {
        argument(at: index)?.bool
    }

    /// The argument at `index` as a `String`, from `s` or `S`.
    @inlinable
    public func string(at index: Int) -> String? {
        argument(at: index)?.string
    }

    /// The bytes of the `s` or `S` argument at `index`, in place, without the NUL.
    @inlinable
    public func stringBytes(at index: Int) -> UnsafeRawBufferPointer? {
        argument(at: index)?.stringBytes
    }

    /// The content of the blob at `index`, in place.
    @inlinable
    public func blob(at index: Int) -> UnsafeRawBufferPointer? {
        argument(at: index)?.blob
    }

    /// The time tag argument (`t`) at `index`.
    @inlinable
    public func timeTag(at index: Int) -> OSCTimeTag? {
        argument(at: index)?.timeTag
    }

    /// The character argument (`c`) at `index`.
    @inlinable
    public func character(at index: Int) -> UInt8? {
        argument(at: index)?.character
    }

    /// The colour argument (`r`) at `index`.
    @inlinable
    public func rgba(at index: Int) -> OSCRGBA? {
        argument(at: index)?.rgba
    }

    /// The MIDI argument (`m`) at `index`.
    @inlinable
    public func midi(at index: Int) -> OSCMIDI? {
        argument(at: index)?.midi
    }
}
