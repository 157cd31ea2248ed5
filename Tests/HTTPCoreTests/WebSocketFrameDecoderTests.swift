import HTTPCore
import Testing

@Suite struct WebSocketFrameDecoderTests {
    private let hello = Array("Hello".utf8)

    // RFC 6455 section 5.7: a single-frame masked text message.
    @Test func rfcMaskedHello() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        for size in [1, 2, 5, bytes.count] {
            let result = WebSocketWire.decode(bytes, pieces: size)
            #expect(result.messages == [.text("Hello")] && result.error == nil)
        }
    }

    // Section 5.7's fragmented "Hel" + "lo", masked as a client must send it.
    @Test func rfcFragmentedHello() {
        let bytes =
            WebSocketWire.masked([0x01, 0x03, 0x48, 0x65, 0x6C]) + WebSocketWire.masked([0x80, 0x02, 0x6C, 0x6F])
        for size in [1, 3, bytes.count] {
            #expect(WebSocketWire.decode(bytes, pieces: size).messages == [.text("Hello")])
        }
    }

    // Section 5.7's masked Pong (the answer to its unmasked Ping), and the Ping masked.
    @Test func rfcPingAndPong() {
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        let ping = WebSocketWire.masked([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(WebSocketWire.decode(ping + pong).messages == [.ping(hello), .pong(hello)])
    }

    // Section 5.7's 256-byte and 64 KiB binary messages (16-bit and 64-bit lengths), masked.
    @Test(arguments: [256, 65536])
    func rfcLongBinary(count: Int) {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let header: [UInt8] =
            count == 256 ? [0x82, 0x7E, 0x01, 0x00] : [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00]
        let bytes = WebSocketWire.masked(header + payload)
        for size in [1, 1000, bytes.count] {
            let result = WebSocketWire.decode(bytes, pieces: size)
            #expect(result.messages == [.binary(payload)] && result.error == nil)
        }
    }

    @Test func everyMessageKindByteAtATime() {
        let encoder = WebSocketFrameEncoder()
        let messages: [WebSocketMessage] = [
            .text(""), .text("grüße 🎛️"), .binary([]), .binary([0, 1, 2, 255]), .ping([]), .ping([9, 9]), .pong([7]),
            .text(String(repeating: "x", count: 300)), .close(code: .goingAway, reason: "bye ✓"),
        ]
        let bytes = messages.flatMap { WebSocketWire.masked(encoder.encode($0), key: [0xA5, 0x00, 0xFF, 0x3C]) }
        for size in [1, 2, 7, bytes.count] {
            let result = WebSocketWire.decode(bytes, pieces: size)
            #expect(result.messages == messages && result.error == nil, "pieces of \(size)")
        }
    }

    @Test func controlFramesBetweenFragmentsComeAtOnce() throws {
        let bytes =
            WebSocketWire.clientFrame(0x02, [1, 2]) + WebSocketWire.clientFrame(0x89, [7])
            + WebSocketWire.clientFrame(0x00, [3]) + WebSocketWire.clientFrame(0x8A, [])
            + WebSocketWire.clientFrame(0x80, [4])
        var decoder = WebSocketFrameDecoder()
        var buffer = Array(bytes[..<(8 + 7)])
        #expect(try decoder.decode(buffer: &buffer) == .ping([7]))
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.isEmpty)
        buffer += bytes[(8 + 7)...]
        #expect(try decoder.decode(buffer: &buffer) == .pong([]))
        #expect(try decoder.decode(buffer: &buffer) == .binary([1, 2, 3, 4]))
        #expect(try decoder.decode(buffer: &buffer) == nil)
    }

    // A UTF-8 sequence may be split between fragments; only the whole message must be UTF-8.
    @Test func textSplitInsideACharacter() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let bytes =
            WebSocketWire.clientFrame(0x01, [0x41, euro[0]]) + WebSocketWire.clientFrame(0x00, [euro[1]])
            + WebSocketWire.clientFrame(0x80, [euro[2]])
        #expect(WebSocketWire.decode(bytes, pieces: 1).messages == [.text("A€")])
    }

    // Section 5.2 asks the sender for the shortest length; the decoder accepts the longer forms.
    @Test func nonMinimalLengthsAreAccepted() {
        let sixteen = WebSocketWire.masked([0x82, 126, 0, 2, 5, 6])
        let sixtyFour = WebSocketWire.masked([0x81, 127, 0, 0, 0, 0, 0, 0, 0, 1, 0x41])
        #expect(WebSocketWire.decode(sixteen + sixtyFour).messages == [.binary([5, 6]), .text("A")])
    }

    @Test func tooLargeIsRefusedFromTheHeaderAlone() throws {
        var decoder = WebSocketFrameDecoder(maximumMessageLength: 1000)
        // 64-bit length 1001 and the mask, no payload.
        var buffer: [UInt8] = [0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0x03, 0xE9, 1, 2, 3, 4]
        #expect(throws: WebSocketError.messageTooLarge(length: 1001, limit: 1000, offset: 0)) {
            try decoder.decode(buffer: &buffer)
        }
        #expect(WebSocketFrameDecoder.defaultMaximumMessageLength == 1 << 20)
        let exactly = WebSocketWire.masked([0x82, 126, 0x03, 0xE8] + [UInt8](repeating: 7, count: 1000))
        #expect(WebSocketWire.decode(exactly, limit: 1000).messages == [.binary([UInt8](repeating: 7, count: 1000))])
    }

    @Test func nothingIsReadAfterClose() throws {
        let close = WebSocketWire.clientFrame(0x88, [0x03, 0xE8, 0x6F, 0x6B])
        var buffer = close + WebSocketWire.clientFrame(0x81, [0x41]) + [0xFF]
        var decoder = WebSocketFrameDecoder()
        #expect(try decoder.decode(buffer: &buffer) == .close(code: .normalClosure, reason: "ok"))
        #expect(decoder.hasReceivedClose)
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.count == 8)
        #expect(WebSocketWire.decode(WebSocketWire.clientFrame(0x88, [])).messages == [.close(code: nil, reason: "")])
    }

    @Test func messagesBeforeAFaultComeFirstAndTheFaultStays() throws {
        var buffer = WebSocketWire.clientFrame(0x89, [1]) + [0x81, 0x00]
        var decoder = WebSocketFrameDecoder()
        #expect(try decoder.decode(buffer: &buffer) == .ping([1]))
        for _ in 0..<2 {
            #expect(throws: WebSocketError.unmaskedFrame(offset: 7)) { try decoder.decode(buffer: &buffer) }
        }
    }

    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999])
    func closeCodesAPeerMaySend(code: UInt16) {
        let bytes = WebSocketWire.clientFrame(0x88, [UInt8(code >> 8), UInt8(code & 0xFF)])
        #expect(WebSocketWire.decode(bytes).messages == [.close(code: WebSocketCloseCode(rawValue: code), reason: "")])
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535])
    func closeCodesAPeerMayNotSend(code: UInt16) {
        let bytes = WebSocketWire.clientFrame(0x88, [UInt8(code >> 8), UInt8(code & 0xFF)])
        let result = WebSocketWire.decode(bytes, pieces: 1)
        #expect(result.messages.isEmpty && result.error == .invalidCloseCode(code, offset: 6))
        #expect(result.error?.closeCode == .protocolError)
    }

    private static func frame(_ first: UInt8, _ payload: [UInt8]) -> [UInt8] {
        WebSocketWire.clientFrame(first, payload)
    }

    private static let topBitLength: [UInt8] = [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]

    // Each fault, its error (with the offset it names) and the close code it maps to.
    @Test(
        arguments: [
            ([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], WebSocketError.unmaskedFrame(offset: 0), 1002),
            (frame(0xC1, [0x41]), .reservedBitsSet(bits: 0x40, offset: 0), 1002),
            (frame(0x81, []) + frame(0x92, []), .reservedBitsSet(bits: 0x10, offset: 6), 1002),
            (frame(0x83, []), .unknownOpcode(0x3, offset: 0), 1002),
            (frame(0x8F, []), .unknownOpcode(0xF, offset: 0), 1002),
            (frame(0x09, []), .fragmentedControlFrame(.ping, offset: 0), 1002),
            (frame(0x08, []), .fragmentedControlFrame(.close, offset: 0), 1002),
            (frame(0x8A, [UInt8](repeating: 0, count: 126)), .controlFrameTooLong(.pong, length: 126, offset: 0), 1002),
            (frame(0x80, [0x41]), .continuationWithoutStart(offset: 0), 1002),
            (frame(0x81, [0x41]) + frame(0x00, []), .continuationWithoutStart(offset: 7), 1002),
            (frame(0x01, [0x41]) + frame(0x82, []), .dataFrameInsideFragmentedMessage(offset: 7), 1002),
            (topBitLength, .lengthOutOfRange(offset: 0), 1002),
            (frame(0x82, [UInt8](repeating: 0, count: 11)), .messageTooLarge(length: 11, limit: 10, offset: 0), 1009),
            (
                frame(0x02, [UInt8](repeating: 0, count: 6)) + frame(0x89, [1]) + frame(0x80, [0, 0, 0, 0, 0]),
                .messageTooLarge(length: 11, limit: 10, offset: 19), 1009
            ),
            (frame(0x81, [0x61, 0xFF]), .invalidUTF8(offset: 7), 1007),
            (frame(0x81, [0xC0, 0x80]), .invalidUTF8(offset: 6), 1007),
            (frame(0x81, [0xED, 0xA0, 0x80]), .invalidUTF8(offset: 7), 1007),
            (frame(0x81, [0xF4, 0x90, 0x80, 0x80]), .invalidUTF8(offset: 7), 1007),
            (frame(0x81, [0x61, 0xE2, 0x82]), .invalidUTF8(offset: 7), 1007),
            (frame(0x01, [0xE2, 0x82]) + frame(0x80, [0x41]), .invalidUTF8(offset: 14), 1007),
            (frame(0x88, [0x03]), .closePayloadTooShort(offset: 0), 1002),
            (frame(0x88, [0x03, 0xE8, 0x61, 0xFF]), .invalidUTF8(offset: 9), 1007),
            (frame(0x88, [0x03, 0xE8, 0xE2]), .invalidUTF8(offset: 8), 1007),
        ] as [([UInt8], WebSocketError, UInt16)])
    func faults(bytes: [UInt8], error: WebSocketError, closeCode: UInt16) {
        for size in [1, 2, 3, bytes.count] {
            let result = WebSocketWire.decode(bytes, pieces: size, limit: 10)
            #expect(result.error == error, "pieces of \(size)")
        }
        #expect(error.closeCode.rawValue == closeCode)
        #expect(error.offset >= 0 && error.offset < bytes.count)
    }
}
