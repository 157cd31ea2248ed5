import OSCCore

/// A bundle sent over a link: the ``ViaHeader`` first, then `P f v` messages.
public struct LinkBundle: Sendable, Hashable {
    /// The hop list.
    public var via: ViaHeader
    /// The values, in order.
    public var values: [LinkValue]
    /// Messages after the header that are not `P f`, `P d`, `P i` (counted, not applied).
    public var ignoredMessages = 0

    /// A bundle of `values` under `via`.
    public init(via: ViaHeader, values: [LinkValue]) {
        self.via = via
        self.values = values
    }

    /// Reads a decoded packet.
    ///
    /// Elements after the header that are not a message with one number are counted in
    /// ``ignoredMessages``: a link applies what it can read.
    /// - Throws: ``ViaHeaderError``.
    public init(_ packet: OSCPacket) throws(ViaHeaderError) {
        guard case .bundle(let bundle) = packet, let first = bundle.elements.first else { throw .notABundle }
        guard case .message(let header) = first else { throw .noViaHeader }
        via = try ViaHeader(header)
        values = []
        for element in bundle.elements.dropFirst() {
            guard case .message(let message) = element, message.arguments.count == 1,
                message.address.utf8.first == UInt8(ascii: "/")
            else {
                ignoredMessages += 1
                continue
            }
            switch message.arguments[0] {
            case .float32(let value): values.append(LinkValue(address: message.address, value: value))
            case .double(let value): values.append(LinkValue(address: message.address, value: Float(value)))
            case .int32(let value): values.append(LinkValue(address: message.address, value: Float(value)))
            default: ignoredMessages += 1
            }
        }
    }

    /// Whether a datagram looks like a link bundle: a bundle whose first element is a `/sys/via`
    /// message. Cheap (no decoding), so the server can test every datagram.
    public static func isLinkBundle(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // "#bundle\0", 8 bytes of time tag, the first element's size, then its address.
        let prefix = bundlePrefix
        guard bytes.count >= 20 + prefix.count else { return false }
        for (offset, byte) in bundleMarker.enumerated() where bytes[offset] != byte { return false }
        for (offset, byte) in prefix.enumerated() where bytes[20 + offset] != byte { return false }
        return true
    }

    private static let bundleMarker: [UInt8] = Array("#bundle".utf8) + [0]
    /// `/sys/via` and its padding: the address ends exactly there.
    private static let bundlePrefix: [UInt8] = Array(ViaHeader.address.utf8) + [0, 0, 0, 0]

    /// The bundle as datagrams of at most `limit` bytes, each starting with the header (a bundle
    /// of many values is split; a header alone is never sent).
    public func datagrams(limit: Int) -> [[UInt8]] {
        let header = OSCPacket.message(via.message)
        let base = 16 + 4 + header.encodedSize
        var result: [[UInt8]] = []
        var elements: [OSCPacket] = [header]
        var size = base
        for value in values {
            let message = OSCPacket.message(OSCMessage(value.address, [.float32(value.value)]))
            let cost = 4 + message.encodedSize
            if size + cost > limit && elements.count > 1 {
                result.append(OSCBundle(timeTag: .immediately, elements).encoded())
                elements = [header]
                size = base
            }
            elements.append(message)
            size += cost
        }
        if elements.count > 1 { result.append(OSCBundle(timeTag: .immediately, elements).encoded()) }
        return result
    }
}
