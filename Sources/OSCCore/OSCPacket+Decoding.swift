extension OSCPacket {
    /// Decodes a whole packet (a message or a bundle, with any nested bundles) into owned values.
    ///
    /// The entire packet is validated before anything is built, so a malformed element anywhere
    /// makes the whole packet fail.
    /// - Parameters:
    ///   - bytes: one packet: the content of a datagram or of one stream frame.
    ///   - options: what to accept beyond strict OSC; the default accepts what liblo and
    ///     python-osc send.
    /// - Returns: the packet.
    /// - Throws: ``OSCDecodingError`` naming the first problem and its byte offset in `bytes`.
    /// - Complexity: O(n) in the length of `bytes`.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, options: OSCDecodingOptions = .default
    ) throws(OSCDecodingError) -> OSCPacket {
        let base = try validate(bytes, options: options)
        return build(base, start: 0, end: bytes.count)
    }

    /// Decodes a whole packet from an array of bytes; see ``decode(_:options:)-(UnsafeRawBufferPointer,_)``.
    public static func decode(_ bytes: [UInt8], options: OSCDecodingOptions = .default) throws(OSCDecodingError)
        -> OSCPacket
    {
        let result: Result<OSCPacket, OSCDecodingError> = bytes.withUnsafeBytes { buffer in
            do throws(OSCDecodingError) {
                return .success(try decode(buffer, options: options))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Validates a whole packet, then calls `body` for every message in it, in order, with the time
    /// tag of the innermost bundle that contains it (``OSCTimeTag/immediately`` for a bare message).
    ///
    /// Because validation comes first, a packet with a malformed element anywhere delivers no
    /// message at all. The views are valid only during the call to `body`.
    /// - Parameters:
    ///   - bytes: one packet: the content of a datagram or of one stream frame.
    ///   - options: what to accept beyond strict OSC.
    ///   - body: called once per message.
    /// - Returns: the number of messages delivered.
    /// - Throws: ``OSCDecodingError`` naming the first problem and its byte offset in `bytes`.
    /// - Complexity: O(n) in the length of `bytes`.
    @discardableResult
    public static func visitMessages(
        in bytes: UnsafeRawBufferPointer, options: OSCDecodingOptions = .default,
        _ body: (OSCMessageView, OSCTimeTag) -> Void
    ) throws(OSCDecodingError) -> Int {
        let base = try validate(bytes, options: options)
        return visit(base, start: 0, end: bytes.count, timeTag: .immediately, body)
    }

    /// Checks the whole packet and returns its base address.
    static func validate(
        _ bytes: UnsafeRawBufferPointer, options: OSCDecodingOptions
    ) throws(OSCDecodingError) -> UnsafeRawPointer {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .emptyPacket(offset: 0)
        }
        try OSCPacketValidator(base: base, options: options).validatePacket(start: 0, end: bytes.count, depth: 0)
        return base
    }

    private static func visit(
        _ base: UnsafeRawPointer, start: Int, end: Int, timeTag: OSCTimeTag,
        _ body: (OSCMessageView, OSCTimeTag) -> Void
    ) -> Int {
        if base.load(fromByteOffset: start, as: UInt8.self) != UInt8(ascii: "#") {
            body(
                OSCMessageView(
                    base: base, layout: OSCPacketValidator.layoutOfValidMessage(base, start: start, end: end)), timeTag)
            return 1
        }
        let bundleTime = OSCTimeTag(rawValue: OSCWire.loadUInt64(base, start + 8))
        var delivered = 0
        var offset = start + 16
        while offset < end {
            let size = Int(OSCWire.loadInt32(base, offset))
            delivered += visit(base, start: offset + 4, end: offset + 4 + size, timeTag: bundleTime, body)
            offset += 4 + size
        }
        return delivered
    }

    private static func build(_ base: UnsafeRawPointer, start: Int, end: Int) -> OSCPacket {
        if base.load(fromByteOffset: start, as: UInt8.self) != UInt8(ascii: "#") {
            let layout = OSCPacketValidator.layoutOfValidMessage(base, start: start, end: end)
            return .message(OSCMessageView(base: base, layout: layout).makeMessage())
        }
        var bundle = OSCBundle(timeTag: OSCTimeTag(rawValue: OSCWire.loadUInt64(base, start + 8)))
        var offset = start + 16
        while offset < end {
            let size = Int(OSCWire.loadInt32(base, offset))
            bundle.elements.append(build(base, start: offset + 4, end: offset + 4 + size))
            offset += 4 + size
        }
        return .bundle(bundle)
    }
}
