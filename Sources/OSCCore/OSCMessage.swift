/// An OSC message that owns its address and arguments.
///
/// A message is either built from values (``init(_:_:)``) or decoded (``OSCPacket/decode(_:options:)-(UnsafeRawBufferPointer,_)``,
/// ``OSCMessageView/makeMessage()``). A decoded message keeps a copy of the packet's bytes, made in
/// one allocation and shared by every message of a bundle, and reads its address and arguments
/// from there when asked: decoding builds no `String` and no array. Reading ``address`` or
/// ``arguments`` builds them on each access; ``argument(at:)``, ``argumentCount``,
/// ``hasAddress(_:)`` and ``withView(_:)`` read the bytes without building the whole message.
///
/// Setting ``address`` or changing ``arguments`` turns a decoded message into values first.
/// Equality and hashing compare the address and arguments, however the message is held.
public struct OSCMessage: Sendable {
    /// How the message is held.
    ///
    /// `@unchecked Sendable` for the layout's pointer: it points into the buffer held beside it,
    /// and neither changes after decoding.
    enum Representation: @unchecked Sendable {
        /// Built by hand: the address and arguments themselves.
        case values(address: String, arguments: [OSCArgument])
        /// Decoded: the storage that keeps the packet's bytes, and this message's layout in it.
        ///
        /// Two payloads, not one struct: reading matches `.stored(_, let layout)`, which does not
        /// copy (and retain) the buffer while `self` keeps it alive.
        case stored(OSCPacketStorage.Buffer, UnsafePointer<OSCStoredMessageLayout>)
        /// Decoded, and short enough to keep its bytes here.
        case inline(OSCInlineMessage)
    }

    var representation: Representation

    /// Creates a message.
    /// - Parameters:
    ///   - address: the OSC address, for example `/knob/gain`.
    ///   - arguments: the arguments, in order.
    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        representation = .values(address: address, arguments: arguments)
    }

    /// The message that validation found at `layout` in the bytes at `base`: inline when it is
    /// short, else in a storage of its own.
    ///
    /// Inlined, so that the inline message is built where the decoded packet is returned rather
    /// than copied there through two results.
    @inline(__always)
    init(decoding layout: OSCPacketValidator.MessageLayout, in base: UnsafeRawPointer) {
        let count = layout.end - layout.start
        if count <= OSCInlineMessage.capacity {
            representation = .inline(OSCInlineMessage(copying: base, layout))
        } else if count <= OSCStoredMessageLayout.largestPacket {
            let bytes = UnsafeRawBufferPointer(start: base + layout.start, count: count)
            var relative = layout
            relative.start = 0
            relative.end = count
            relative.tagsStart -= layout.start
            relative.argumentsStart -= layout.start
            self = OSCPacketStorage(copying: bytes, messageCount: 1).message(0, relative)
        } else {
            let view = OSCMessageView(base: base, layout: layout)
            representation = .values(address: view.address, arguments: view.makeArguments())
        }
    }

    /// A decoded message: `layout` points into `buffer`.
    init(buffer: OSCPacketStorage.Buffer, layout: UnsafePointer<OSCStoredMessageLayout>) {
        representation = .stored(buffer, layout)
    }

    /// The address (or address pattern), for example `/knob/gain`.
    ///
    /// Encoding writes its UTF-8 bytes up to the first NUL, as a C peer would. A decoded address
    /// that is not valid UTF-8 is repaired with U+FFFD here, but encodes as the bytes it came as.
    public var address: String {
        get {
            switch representation {
            case .values(let address, _): address
            case .stored, .inline: withView { $0.address }
            }
        }
        set {
            representation = .values(address: newValue, arguments: arguments)
        }
    }

    /// The arguments, in order.
    ///
    /// For a decoded message this builds the array on every read; prefer ``argument(at:)`` or
    /// ``withView(_:)`` to read one argument or all of them in place.
    public var arguments: [OSCArgument] {
        get {
            switch representation {
            case .values(_, let arguments): arguments
            case .stored, .inline: withView { $0.makeArguments() }
            }
        }
        _modify {
            var values = takeValues()
            defer { representation = .values(address: values.address, arguments: values.arguments) }
            yield &values.arguments
        }
    }

    /// The number of arguments; an array counts as one.
    public var argumentCount: Int {
        switch representation {
        case .values(_, let arguments): arguments.count
        case .stored(_, let layout): Int(layout.pointee.argumentCount)
        case .inline(let message): Int(message.argumentCount)
        }
    }

    /// The argument at `index` (an array counts as one), or `nil` if there are not that many.
    ///
    /// - Complexity: O(1) for a message built from values; for a decoded one, O(`index`) plus the
    ///   length of the strings and blobs before it, and only this argument is built.
    public func argument(at index: Int) -> OSCArgument? {
        switch representation {
        case .values(_, let arguments):
            arguments.indices.contains(index) ? arguments[index] : nil
        case .stored, .inline:
            withView { $0.argument(at: index)?.makeArgument() }
        }
    }

    /// Whether the address is exactly `address`, compared without building a `String` for a
    /// decoded message.
    public func hasAddress(_ address: String) -> Bool {
        switch representation {
        case .values(let own, _): own == address
        case .stored, .inline: withView { $0.hasAddress(address) }
        }
    }

    /// Calls `body` with a view of the encoded message, which reads the address and arguments in
    /// place without allocating.
    ///
    /// A decoded message is viewed in its own bytes; one built from values is encoded into a
    /// temporary buffer first. The view is valid only during the call.
    @inlinable
    public func withView<R, E: Error>(_ body: (OSCMessageView) throws(E) -> R) throws(E) -> R {
        // Generic here, where the caller specialises it; the work is in `view(_:)`, which is not.
        var result: Result<R, E>?
        view { view in
            result = Result { () throws(E) -> R in try body(view) }
        }
        return try result.unsafelyUnwrapped.get()
    }

    /// Calls `body` once with a view of the encoded message; see ``withView(_:)``.
    ///
    /// Inlined for a decoded message, whose view is a few loads; a message of values is encoded
    /// out of line, so that its temporary buffer does not weigh on every caller's frame.
    @usableFromInline @inline(__always)
    func view(_ body: (OSCMessageView) -> Void) {
        switch representation {
        case .stored(_, let layout):
            body(OSCMessageView(stored: layout.pointee))
        case .inline(let message):
            message.view(body)
        case .values:
            viewEncoded(body)
        }
    }

    /// ``view(_:)`` for a message of values: encoded into a temporary buffer first.
    @inline(never)
    private func viewEncoded(_ body: (OSCMessageView) -> Void) {
        let size = encodedSize
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            _ = write(to: base, at: 0, limit: size)
            let layout = OSCPacketValidator.layoutOfValidMessage(UnsafeRawPointer(base), start: 0, end: size)
            body(OSCMessageView(base: UnsafeRawPointer(base), layout: layout))
        }
    }

    /// The address and arguments as values, leaving the representation empty so that the
    /// arguments' array is not shared while a caller changes it.
    private mutating func takeValues() -> (address: String, arguments: [OSCArgument]) {
        let values: (address: String, arguments: [OSCArgument])
        switch representation {
        case .values(let address, let arguments): values = (address, arguments)
        case .stored, .inline: values = withView { ($0.address, $0.makeArguments()) }
        }
        representation = .values(address: "", arguments: [])
        return values
    }
}

extension OSCMessage: Hashable {
    /// Messages are equal when their addresses and arguments are, however each is held.
    public static func == (left: OSCMessage, right: OSCMessage) -> Bool {
        left.argumentCount == right.argumentCount && left.address == right.address
            && left.arguments == right.arguments
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(address)
        hasher.combine(arguments)
    }
}

extension OSCMessage: CustomStringConvertible {
    /// The address and arguments, as Swift would write the message built by hand, for example
    /// `OSCMessage(address: "/knob/gain", arguments: [.float32(0.5)])`, however it is held.
    public var description: String {
        let arguments = self.arguments.map { "." + String(describing: $0) }.joined(separator: ", ")
        return "OSCMessage(address: \(String(reflecting: address)), arguments: [\(arguments)])"
    }
}
