/// A decoded OSC message that reads its address, type tags and arguments in place.
///
/// Creating a view validates the whole message (see ``OSCDecodingOptions``); afterwards every
/// accessor reads the bytes without further checks and without allocating, except ``address``,
/// ``OSCArgumentView/string`` and ``makeMessage()``, which build owned values.
///
/// The view does not own its bytes: it is valid only while the buffer it was made from is alive
/// and unchanged, typically inside a `withUnsafeBytes` closure or a receive callback.
public struct OSCMessageView {
    /// The message's bytes, from the first byte of the address to the end of the last argument.
    public let bytes: UnsafeRawBufferPointer
    @usableFromInline let addressLength: Int
    @usableFromInline let tagsStart: Int
    @usableFromInline let tagsLength: Int
    @usableFromInline let argumentsStart: Int
    /// The number of arguments; an array counts as one argument.
    public let argumentCount: Int

    /// Decodes one message from `bytes`, validating all of it.
    ///
    /// - Parameters:
    ///   - bytes: exactly one message (not a bundle); its length must be a multiple of 4.
    ///   - options: what to accept beyond strict OSC; the default accepts what liblo and
    ///     python-osc send.
    /// - Throws: ``OSCDecodingError`` naming the first problem and its byte offset in `bytes`.
    /// - Complexity: O(n) in the length of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer, options: OSCDecodingOptions = .default) throws(OSCDecodingError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .emptyPacket(offset: 0)
        }
        if bytes.count & 3 != 0 {
            throw .misaligned(size: bytes.count, offset: 0)
        }
        let validator = OSCPacketValidator(base: base, options: options)
        let layout = try validator.validateMessage(start: 0, end: bytes.count)
        self.init(base: base, layout: layout)
    }

    /// A view of a message that has already been validated inside the packet starting at `base`.
    init(base: UnsafeRawPointer, layout: OSCPacketValidator.MessageLayout) {
        let start = layout.start
        bytes = UnsafeRawBufferPointer(start: base + start, count: layout.end - start)
        addressLength = layout.addressLength
        tagsStart = layout.tagsStart - start
        tagsLength = layout.tagsLength
        argumentsStart = layout.argumentsStart - start
        argumentCount = layout.argumentCount
    }

    /// A view of the `count` bytes at `base`, whose parts are at the offsets given.
    init(
        base: UnsafeRawPointer, count: Int, addressLength: Int, tagsStart: Int, tagsLength: Int, argumentsStart: Int,
        argumentCount: Int
    ) {
        bytes = UnsafeRawBufferPointer(start: base, count: count)
        self.addressLength = addressLength
        self.tagsStart = tagsStart
        self.tagsLength = tagsLength
        self.argumentsStart = argumentsStart
        self.argumentCount = argumentCount
    }

    /// A view of a message kept in an ``OSCPacketStorage``.
    init(stored layout: borrowing OSCStoredMessageLayout) {
        bytes = UnsafeRawBufferPointer(start: layout.base + Int(layout.start), count: Int(layout.count))
        addressLength = Int(layout.addressLength)
        tagsStart = Int(layout.tagsStart)
        tagsLength = Int(layout.tagsLength)
        argumentsStart = Int(layout.argumentsStart)
        argumentCount = Int(layout.argumentCount)
    }

    @inlinable
    var base: UnsafeRawPointer { bytes.baseAddress.unsafelyUnwrapped }

    /// The address (or pattern) bytes, without the terminating NUL.
    public var addressBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: addressLength)
    }

    /// The type tags after the `,`, without the NUL; empty for a message without arguments or
    /// without a type tag string.
    @inlinable
    public var typeTags: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + tagsStart, count: tagsLength)
    }

    /// The address as a `String` (invalid UTF-8 is repaired with U+FFFD).
    public var address: String {
        String(decoding: addressBytes, as: UTF8.self)
    }

    /// Whether the address is exactly `address`, compared byte by byte without building a `String`.
    public func hasAddress(_ address: String) -> Bool {
        var address = address
        return address.withUTF8 { utf8 in
            utf8.count == addressLength && (utf8.isEmpty || utf8.elementsEqual(addressBytes))
        }
    }

    /// The top-level arguments, read in place.
    @inlinable
    public var arguments: OSCArgumentSequence {
        OSCArgumentSequence(tags: typeTags, data: base + argumentsStart)
    }

    /// The argument at `index` (arrays count as one), or `nil` if there are not that many.
    ///
    /// Arguments of a fixed size before `index` are skipped by their type tags alone, so the
    /// first argument, and any argument after only numbers, is reached without reading data.
    ///
    /// - Complexity: O(`index`) plus the length of the strings and blobs before it.
    @inlinable
    public func argument(at index: Int) -> OSCArgumentView? {
        guard index >= 0 && index < argumentCount else {
            return nil
        }
        let base = self.base
        let tags = base + tagsStart
        // Every tag before the first string, blob or array is one argument of a known size, and
        // `index < argumentCount` keeps this loop inside the tags.
        var tagIndex = 0
        var offset = argumentsStart
        while true {
            let tag = tags.load(fromByteOffset: tagIndex, as: UInt8.self)
            let fixed = OSCWire.fixedSize(of: tag)
            if fixed < 0 {
                break
            }
            if tagIndex == index {
                return OSCArgumentView(typeTag: tag, start: base + offset, count: fixed, tags: nil)
            }
            offset &+= fixed
            tagIndex &+= 1
        }
        return Self.argument(after: tags, tagIndex, tagsLength, base + offset, skipping: index &- tagIndex)
    }

    /// The slow half of ``argument(at:)``: walks on from the first argument of variable size.
    @usableFromInline
    static func argument(
        after tags: UnsafeRawPointer, _ tagIndex: Int, _ tagCount: Int, _ data: UnsafeRawPointer, skipping: Int
    ) -> OSCArgumentView? {
        var iterator = OSCArgumentSequence.Iterator(tags: tags, index: tagIndex, count: tagCount, data: data)
        var skip = skipping
        while skip > 0 {
            _ = iterator.next()
            skip &-= 1
        }
        return iterator.next()
    }

    /// The owned form of this message: a copy of its bytes (held inline when short, else in one
    /// allocation), from which the message reads its address and arguments (see ``OSCMessage``).
    public func makeMessage() -> OSCMessage {
        let layout = OSCPacketValidator.MessageLayout(
            start: 0, end: bytes.count, addressLength: addressLength, tagsStart: tagsStart, tagsLength: tagsLength,
            argumentsStart: argumentsStart, argumentCount: argumentCount)
        return OSCMessage(decoding: layout, in: base)
    }

    /// The arguments as owned values.
    ///
    /// One or two arguments, the usual control message, are built as an array literal, which
    /// allocates the array at its size in one specialised call: `reserveCapacity` then `append` went
    /// through the array's growth path (a copy of the empty buffer, a release and a size query), 127
    /// of the 1 126 instructions of decoding `/knob/gain ,f` into an owned message. Longer literals
    /// took fewer instructions too but no less time (`,ifsbThd`), so they stay on the general path.
    func makeArguments() -> [OSCArgument] {
        var iterator = self.arguments.makeIterator()
        switch argumentCount {
        case 0:
            return []
        case 1:
            return [iterator.next().unsafelyUnwrapped.makeArgument()]
        case 2:
            let first = iterator.next().unsafelyUnwrapped.makeArgument()
            return [first, iterator.next().unsafelyUnwrapped.makeArgument()]
        default:
            var arguments: [OSCArgument] = []
            arguments.reserveCapacity(argumentCount)
            while let argument = iterator.next() {
                arguments.append(argument.makeArgument())
            }
            return arguments
        }
    }
}
