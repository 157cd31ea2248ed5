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
    @inlinable
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, options: OSCDecodingOptions = .default
    ) throws(OSCDecodingError) -> OSCPacket {
        // Inlined, so that the caller receives the packet from `decoding` where it keeps it: the
        // public entry of the specialised body copied the result once more, and loading that copy
        // stalled on the stores that had just written it.
        try decoding(bytes, options: options)
    }

    /// The body of ``decode(_:options:)-(UnsafeRawBufferPointer,_)``.
    @usableFromInline
    static func decoding(
        _ bytes: UnsafeRawBufferPointer, options: OSCDecodingOptions
    ) throws(OSCDecodingError) -> OSCPacket {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .emptyPacket(offset: 0)
        }
        let validator = OSCPacketValidator(base: base, options: options)
        let storable = bytes.count <= OSCStoredMessageLayout.largestPacket
        if bytes.count & 3 == 0 && base.load(as: UInt8.self) != UInt8(ascii: "#") {
            // A bare message: its bytes, copied once, with the layout validation found.
            let layout = try validator.validateMessage(start: 0, end: bytes.count)
            return .message(OSCMessage(decoding: layout, in: base))
        }
        // A bundle: its bytes, copied once, with the layouts of its messages. Validation records
        // the first 32 of them, so that most bundles need no second scan of their strings.
        let packet = withUnsafeTemporaryAllocation(of: OSCPacketValidator.Record.self, capacity: 32) { records in
            Result { () throws(OSCDecodingError) -> OSCPacket in
                var validator = OSCPacketValidator(base: base, options: options, records: records)
                try validator.validatePacket(start: 0, end: bytes.count, depth: 0, timeTag: .immediately)
                guard storable else {
                    var builder = Builder(base: base)
                    return builder.build(start: 0, end: bytes.count)
                }
                let storage = OSCPacketStorage(copying: bytes, messageCount: validator.recordCount)
                storage.setLayouts(from: records)
                return .bundle(storage.bundle(start: 0, end: bytes.count))
            }
        }
        return try packet.get()
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
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .emptyPacket(offset: 0)
        }
        // Validation records where the first messages are, so that delivering them needs no
        // second scan; a packet with more messages than fit is walked a second time instead.
        let result = withUnsafeTemporaryAllocation(of: OSCPacketValidator.Record.self, capacity: 32) { records in
            Result { () throws(OSCDecodingError) -> Int in
                var validator = OSCPacketValidator(base: base, options: options, records: records)
                try validator.validatePacket(start: 0, end: bytes.count, depth: 0, timeTag: .immediately)
                guard validator.recordCount <= records.count else {
                    return visit(base, start: 0, end: bytes.count, timeTag: .immediately, body)
                }
                for index in 0..<validator.recordCount {
                    body(OSCMessageView(base: base, layout: records[index].layout), records[index].timeTag)
                }
                return validator.recordCount
            }
        }
        return try result.get()
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

    /// Builds owned values from a validated packet too long for an ``OSCPacketStorage``'s 32-bit
    /// offsets, each message a copy of its own.
    private struct Builder {
        let base: UnsafeRawPointer

        mutating func build(start: Int, end: Int) -> OSCPacket {
            if base.load(fromByteOffset: start, as: UInt8.self) != UInt8(ascii: "#") {
                let layout = OSCPacketValidator.layoutOfValidMessage(base, start: start, end: end)
                return .message(OSCMessage(decoding: layout, in: base))
            }
            var elements: [OSCPacket] = []
            var offset = start + 16
            while offset < end {
                let size = Int(OSCWire.loadInt32(base, offset))
                elements.append(build(start: offset + 4, end: offset + 4 + size))
                offset += 4 + size
            }
            return .bundle(OSCBundle(timeTag: OSCTimeTag(rawValue: OSCWire.loadUInt64(base, start + 8)), elements))
        }
    }
}
