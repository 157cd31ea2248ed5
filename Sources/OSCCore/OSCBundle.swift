/// An OSC bundle: a time tag and elements, each a message or a bundle.
///
/// A bundle is either built from values (``init(timeTag:_:)``) or decoded. A decoded bundle keeps
/// the packet's bytes, copied once, with where each message sits in them; its ``elements`` are
/// made from those bytes when asked, and every message made shares the copy. To read every
/// message without making the elements, use ``forEachMessage(_:)``.
///
/// Setting ``timeTag`` or changing ``elements`` turns a decoded bundle into values first.
/// Equality and hashing compare the time tag and the elements, however the bundle is held.
public struct OSCBundle: Sendable {
    /// How the bundle is held.
    ///
    /// `@unchecked Sendable` for the stored bundle's pointers: they point into the buffer held
    /// beside them, which does not change after decoding.
    enum Representation: @unchecked Sendable {
        /// Built by hand.
        case values(timeTag: OSCTimeTag, elements: [OSCPacket])
        /// Decoded: the storage that keeps the packet's bytes, and where this bundle is in them.
        case stored(OSCPacketStorage.Buffer, OSCStoredBundle)
    }

    var representation: Representation

    /// Creates a bundle.
    /// - Parameters:
    ///   - timeTag: when the elements should take effect.
    ///   - elements: the messages and bundles it contains.
    public init(timeTag: OSCTimeTag = .immediately, _ elements: [OSCPacket] = []) {
        representation = .values(timeTag: timeTag, elements: elements)
    }

    /// A decoded bundle.
    init(buffer: OSCPacketStorage.Buffer, stored: OSCStoredBundle) {
        representation = .stored(buffer, stored)
    }

    /// When the elements should take effect; ``OSCTimeTag/immediately`` for at once.
    public var timeTag: OSCTimeTag {
        get {
            switch representation {
            case .values(let timeTag, _): timeTag
            case .stored(_, let stored): stored.timeTag
            }
        }
        set {
            representation = .values(timeTag: newValue, elements: elements)
        }
    }

    /// The elements, in order.
    ///
    /// For a decoded bundle this makes the array on every read (its messages share the bundle's
    /// bytes); ``forEachMessage(_:)`` reads the messages without it.
    public var elements: [OSCPacket] {
        get {
            switch representation {
            case .values(_, let elements): elements
            case .stored(let buffer, let stored): stored.makeElements(buffer)
            }
        }
        _modify {
            var values = (timeTag: timeTag, elements: elements)
            representation = .values(timeTag: values.timeTag, elements: [])
            defer { representation = .values(timeTag: values.timeTag, elements: values.elements) }
            yield &values.elements
        }
    }

    /// Calls `body` for every message in the bundle, nested bundles included, in order, with the
    /// time tag of the innermost bundle that holds it. Nothing is allocated for a decoded bundle.
    ///
    /// The views are valid only during the call to `body`.
    public func forEachMessage(_ body: (OSCMessageView, OSCTimeTag) -> Void) {
        switch representation {
        case .values(let timeTag, let elements):
            for element in elements {
                switch element {
                case .message(let message): message.view { body($0, timeTag) }
                case .bundle(let bundle): bundle.forEachMessage(body)
                }
            }
        case .stored(_, let stored):
            // The buffer lives as long as `self`, which the caller holds during the call.
            var slot = stored.layouts
            stored.visit(start: stored.start, end: stored.end, slot: &slot, body)
        }
    }
}

extension OSCBundle: Hashable {
    /// Bundles are equal when their time tags and elements are, however each is held.
    public static func == (left: OSCBundle, right: OSCBundle) -> Bool {
        left.timeTag == right.timeTag && left.elements == right.elements
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timeTag)
        hasher.combine(elements)
    }
}

/// Where a decoded bundle is in its ``OSCPacketStorage``: the packet's first byte, the bundle's
/// bytes (offsets from it), and the layout of its first message; the layouts of its messages
/// follow one another in the order the messages come, nested bundles' included.
struct OSCStoredBundle {
    let base: UnsafeRawPointer
    let layouts: UnsafePointer<OSCStoredMessageLayout>
    let start: Int32
    let end: Int32

    var timeTag: OSCTimeTag {
        OSCTimeTag(rawValue: OSCWire.loadUInt64(base, Int(start) + 8))
    }

    /// The elements as values, each message reading from `buffer`.
    func makeElements(_ buffer: OSCPacketStorage.Buffer) -> [OSCPacket] {
        var elements: [OSCPacket] = []
        var slot = layouts
        forEachElement { elementStart, elementEnd in
            if base.load(fromByteOffset: elementStart, as: UInt8.self) == UInt8(ascii: "#") {
                let nested = OSCStoredBundle(
                    base: base, layouts: slot, start: Int32(truncatingIfNeeded: elementStart),
                    end: Int32(truncatingIfNeeded: elementEnd))
                elements.append(.bundle(OSCBundle(buffer: buffer, stored: nested)))
                slot += nested.messageCount
            } else {
                elements.append(.message(OSCMessage(buffer: buffer, layout: slot)))
                slot += 1
            }
        }
        return elements
    }

    /// The number of messages in the bundle, nested bundles' included.
    var messageCount: Int {
        var count = 0
        forEachElement { elementStart, elementEnd in
            if base.load(fromByteOffset: elementStart, as: UInt8.self) == UInt8(ascii: "#") {
                count +=
                    OSCStoredBundle(
                        base: base, layouts: layouts, start: Int32(truncatingIfNeeded: elementStart),
                        end: Int32(truncatingIfNeeded: elementEnd)
                    ).messageCount
            } else {
                count += 1
            }
        }
        return count
    }

    /// Calls `body` with the start and end of each element, from the size fields.
    private func forEachElement(_ body: (Int, Int) -> Void) {
        var offset = Int(start) + 16
        let end = Int(end)
        while offset < end {
            let size = Int(OSCWire.loadInt32(base, offset))
            body(offset + 4, offset + 4 + size)
            offset += 4 + size
        }
    }

    /// Calls `body` for every message in `start ..< end`, taking their layouts from `slot` on.
    func visit(
        start: Int32, end: Int32, slot: inout UnsafePointer<OSCStoredMessageLayout>,
        _ body: (OSCMessageView, OSCTimeTag) -> Void
    ) {
        let timeTag = OSCTimeTag(rawValue: OSCWire.loadUInt64(base, Int(start) + 8))
        var offset = Int(start) + 16
        let end = Int(end)
        while offset < end {
            let size = Int(OSCWire.loadInt32(base, offset))
            let elementStart = offset + 4
            if base.load(fromByteOffset: elementStart, as: UInt8.self) == UInt8(ascii: "#") {
                visit(
                    start: Int32(truncatingIfNeeded: elementStart), end: Int32(truncatingIfNeeded: elementStart + size),
                    slot: &slot, body)
            } else {
                body(OSCMessageView(stored: slot.pointee), timeTag)
                slot += 1
            }
            offset = elementStart + size
        }
    }
}

extension OSCBundle: CustomStringConvertible {
    /// The time tag and elements, however the bundle is held, for example
    /// `OSCBundle(timeTag: 1, elements: [.message(OSCMessage(address: "/a", arguments: []))])`.
    public var description: String {
        let elements = self.elements.map { "." + String(describing: $0) }.joined(separator: ", ")
        return "OSCBundle(timeTag: \(timeTag.rawValue), elements: [\(elements)])"
    }
}
