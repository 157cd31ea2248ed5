/// Reads WebSocket frames (RFC 6455 section 5) as bytes arrive, and hands over whole messages and
/// control frames.
///
/// By default the decoder is the server's side of the protocol (``WebSocketRole/server``), so it
/// holds a client to what section 5 asks of it: every frame masked, reserved bits clear, known opcodes only, control frames unfragmented
/// and at most 125 bytes, fragments in order, text in UTF-8, close codes a peer may send. Each
/// fault throws a ``WebSocketError`` that names the byte and gives the close code to answer with.
/// A client's decoder (``WebSocketRole/client``) reads a server's frames, which must not be masked
/// (section 5.1: a client closes the connection on a masked frame); the other rules are the same.
///
/// A message's size is checked against ``maximumMessageLength`` from each frame's header, before
/// any of its payload is kept: a client cannot make the server hold more than the limit by
/// announcing a large frame or by sending many fragments. Text is checked as it arrives, so a
/// message that stops being UTF-8 is refused at that byte rather than after it is all in memory.
///
/// Lengths that use more bytes than needed (a 5-byte payload announced with the 16-bit form) are
/// accepted: section 5.2's "minimal number of bytes" binds the sender, the receiver is not told to
/// fail the connection for it, and the value, which is what the limits check, is the same.
///
/// After a Close frame the decoder reads nothing more: the bytes that follow it stay in the buffer
/// and every later call returns `nil`, since section 5.5.1 says no data comes after a Close.
/// After an error, every later call throws the same error. Use one decoder per connection.
public struct WebSocketFrameDecoder: Sendable {
    /// The default for ``maximumMessageLength``: 1 MiB, PROTOCOL.md section 8's limit for
    /// WebSocket messages (the `--max-frame` flag).
    public static let defaultMaximumMessageLength = 1 << 20

    /// The longest data message accepted, counting the payloads of all its fragments.
    public let maximumMessageLength: Int
    /// Which end of the connection reads with this decoder.
    public let role: WebSocketRole

    private struct FrameHeader: Sendable {
        var fin: Bool
        var opcode: WebSocketOpcode
        var length: Int
        var mask: (UInt8, UInt8, UInt8, UInt8)
        // Stream offsets of the header's first byte and of the payload's first byte.
        var start: Int
        var payloadStart: Int
    }

    // The frame whose payload is being read; nil between frames.
    private var frame: FrameHeader?
    // Payload bytes of `frame` read so far.
    private var received = 0
    // The payload of the control frame being read.
    private var control: [UInt8] = []
    // The opcode (text or binary) of the data message being read, and its payload so far.
    private var messageOpcode: WebSocketOpcode?
    private var message: [UInt8] = []
    private var utf8 = UTF8Validator()
    // Stream offset of the buffer's first byte: bytes the decoder has taken out of buffers so far.
    private var consumed = 0
    // Messages decoded from the buffer but not handed over yet, in order.
    private var ready: [WebSocketMessage] = []
    private var readyIndex = 0
    private var failure: WebSocketError?
    private var closed = false

    /// Creates a decoder.
    /// - Parameters:
    ///   - maximumMessageLength: the longest data message accepted; 1 MiB by default. A negative
    ///     value accepts only empty messages.
    ///   - role: the end that reads: a server reads masked frames only, a client unmasked ones.
    public init(
        maximumMessageLength: Int = WebSocketFrameDecoder.defaultMaximumMessageLength, role: WebSocketRole = .server
    ) {
        self.maximumMessageLength = max(0, maximumMessageLength)
        self.role = role
    }

    /// Whether a Close frame has been read; the decoder reads nothing after it.
    public var hasReceivedClose: Bool { closed }

    /// Consumes bytes from the front of `buffer` and returns the next message, if one is complete.
    ///
    /// Every byte the decoder has used is removed from `buffer`: whole frames, and the payload so
    /// far of an unfinished one, which the decoder keeps (unmasked) itself. What stays is the start
    /// of a header (at most 13 bytes) or, after a Close frame, whatever followed it. A call reads
    /// all the frames in `buffer` at once and hands their messages over one per call, so that a
    /// buffer of many small frames costs linear time; call until it returns `nil`.
    ///
    /// - Parameter buffer: the bytes received and not yet consumed; append new bytes to its end.
    /// - Returns: the next message, control frames as soon as they are complete (also between the
    ///   fragments of a message), or `nil` if no message is complete yet.
    /// - Throws: a ``WebSocketError`` when the stream breaks the protocol, once the messages
    ///   before the fault have been returned. The server then sends a Close frame with its
    ///   ``WebSocketError/closeCode`` and drops the connection.
    /// - Complexity: O(n) in the bytes of `buffer`, amortised over the calls that return its messages.
    public mutating func decode(buffer: inout [UInt8]) throws(WebSocketError) -> WebSocketMessage? {
        if readyIndex == ready.count && failure == nil && !closed {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            var index = 0
            do {
                try read(buffer, from: &index)
            } catch {
                failure = error
            }
            buffer.removeFirst(index)
            consumed += index
        }
        if readyIndex < ready.count {
            readyIndex += 1
            return ready[readyIndex - 1]
        }
        if let failure { throw failure }
        return nil
    }

    // Reads frames from `buffer[index...]`, queueing their messages, until the bytes run out or a
    // Close frame is read; `index` ends past the last byte used.
    private mutating func read(_ buffer: [UInt8], from index: inout Int) throws(WebSocketError) {
        while !closed {
            if frame == nil {
                guard let header = try readHeader(buffer, at: index) else { return }
                index += header.payloadStart - header.start
                frame = header
                received = 0
                if header.opcode == .text || header.opcode == .binary { messageOpcode = header.opcode }
            }
            guard let header = frame else { return }
            let count = min(header.length - received, buffer.count - index)
            try takePayload(buffer[index..<(index + count)], of: header)
            index += count
            received += count
            guard received == header.length else { return }
            frame = nil
            try finish(header)
        }
    }

    // The header starting at `buffer[index]`, checked, or nil if it is not all there yet. The
    // checks go byte by byte, so that a fault in the first byte is found before the rest arrives.
    private func readHeader(_ buffer: [UInt8], at index: Int) throws(WebSocketError) -> FrameHeader? {
        let available = buffer.count - index
        guard available >= 1 else { return nil }
        let start = consumed + index
        let first = buffer[index]
        guard first & 0x70 == 0 else { throw .reservedBitsSet(bits: first & 0x70, offset: start) }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .unknownOpcode(first & 0x0F, offset: start)
        }
        let fin = first & 0x80 != 0
        if opcode.isControl {
            guard fin else { throw .fragmentedControlFrame(opcode, offset: start) }
        } else if opcode == .continuation {
            guard messageOpcode != nil else { throw .continuationWithoutStart(offset: start) }
        } else {
            guard messageOpcode == nil else { throw .dataFrameInsideFragmentedMessage(offset: start) }
        }
        guard available >= 2 else { return nil }
        let second = buffer[index + 1]
        let isMasked = second & 0x80 != 0
        switch role {
        case .server: guard isMasked else { throw .unmaskedFrame(offset: start) }
        case .client: guard !isMasked else { throw .maskedFrame(offset: start) }
        }
        let shortLength = second & 0x7F
        let lengthBytes = shortLength == 127 ? 8 : shortLength == 126 ? 2 : 0
        let headerLength = 2 + lengthBytes + (isMasked ? 4 : 0)
        guard available >= headerLength else { return nil }
        var length = UInt64(shortLength)
        if lengthBytes > 0 {
            length = 0
            for byte in buffer[(index + 2)..<(index + 2 + lengthBytes)] { length = length << 8 | UInt64(byte) }
        }
        guard length >> 63 == 0 else { throw .lengthOutOfRange(offset: start) }
        if opcode.isControl {
            guard length <= 125 else { throw .controlFrameTooLong(opcode, length: length, offset: start) }
        } else {
            // Below 2^64: the message so far is at most the limit, an Int, and length is below 2^63.
            let total = UInt64(message.count) + length
            guard total <= UInt64(maximumMessageLength) else {
                throw .messageTooLarge(length: total, limit: maximumMessageLength, offset: start)
            }
        }
        let maskAt = index + 2 + lengthBytes
        // An unmasked frame's payload is XORed with zeros: the same loop reads both.
        let mask =
            isMasked ? (buffer[maskAt], buffer[maskAt + 1], buffer[maskAt + 2], buffer[maskAt + 3]) : (0, 0, 0, 0)
        return FrameHeader(
            fin: fin, opcode: opcode, length: Int(length), mask: mask, start: start, payloadStart: start + headerLength)
    }

    // Unmasks payload bytes of `header`'s frame (the next ones after `received`) into the control
    // frame's or the message's payload, checking text as UTF-8 on the way.
    private mutating func takePayload(_ bytes: ArraySlice<UInt8>, of header: FrameHeader) throws(WebSocketError) {
        let mask = header.mask
        let checksText = !header.opcode.isControl && messageOpcode == .text
        var position = received
        for byte in bytes {
            let key =
                switch position & 3 {
                case 0: mask.0
                case 1: mask.1
                case 2: mask.2
                default: mask.3
                }
            let plain = byte ^ key
            if header.opcode.isControl {
                control.append(plain)
            } else {
                if checksText { try utf8.take(plain, at: header.payloadStart + position) }
                message.append(plain)
            }
            position += 1
        }
    }

    // Queues what a complete frame makes: a control message, or the data message its last fragment ends.
    private mutating func finish(_ header: FrameHeader) throws(WebSocketError) {
        switch header.opcode {
        case .ping:
            ready.append(.ping(control))
        case .pong:
            ready.append(.pong(control))
        case .close:
            ready.append(try closeMessage(control, of: header))
            closed = true
        case .continuation, .text, .binary:
            guard header.fin else { return }
            if messageOpcode == .text {
                try utf8.finish()
                ready.append(.text(String(decoding: message, as: UTF8.self)))
            } else {
                ready.append(.binary(message))
            }
            message = []
            messageOpcode = nil
            utf8 = UTF8Validator()
        }
        control.removeAll(keepingCapacity: true)
    }

    // A Close frame's payload: nothing, or a code a peer may send followed by a UTF-8 reason.
    private func closeMessage(_ payload: [UInt8], of header: FrameHeader) throws(WebSocketError) -> WebSocketMessage {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .closePayloadTooShort(offset: header.start) }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard WebSocketCloseCode(rawValue: code).isValidFromPeer else {
            throw .invalidCloseCode(code, offset: header.payloadStart)
        }
        var reason = UTF8Validator()
        for (position, byte) in payload.dropFirst(2).enumerated() {
            try reason.take(byte, at: header.payloadStart + 2 + position)
        }
        try reason.finish()
        return .close(
            code: WebSocketCloseCode(rawValue: code), reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
    }
}
