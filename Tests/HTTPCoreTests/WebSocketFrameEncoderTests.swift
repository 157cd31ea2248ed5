import HTTPCore
import Testing

@Suite struct WebSocketFrameEncoderTests {
    private let encoder = WebSocketFrameEncoder()
    private let hello = Array("Hello".utf8)

    // RFC 6455 section 5.7, byte for byte: the unmasked frames a server sends.
    @Test func rfcExamples() {
        #expect(encoder.encode(.text("Hello")) == [0x81, 0x05] + hello)
        #expect(
            encoder.encode(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8))) == [
                0x01, 0x03, 0x48, 0x65, 0x6C,
            ])
        #expect(
            encoder.encode(WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8))) == [
                0x80, 0x02, 0x6C, 0x6F,
            ])
        #expect(encoder.encode(.ping(hello)) == [0x89, 0x05] + hello)
        #expect(encoder.encode(.pong(hello)) == [0x8A, 0x05] + hello)
        let short = [UInt8](repeating: 0xAB, count: 256)
        #expect(encoder.encode(.binary(short)) == [0x82, 0x7E, 0x01, 0x00] + short)
        let long = [UInt8](repeating: 0xCD, count: 65536)
        #expect(encoder.encode(.binary(long)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0, 0] + long)
    }

    @Test(arguments: [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)])
    func lengthsAreMinimal(count: Int, headerLength: Int) {
        #expect(encoder.encode(.binary([UInt8](repeating: 0, count: count))).count == count + headerLength)
    }

    @Test func closeFrames() {
        #expect(encoder.encode(.close(code: .normalClosure, reason: "ok")) == [0x88, 0x04, 0x03, 0xE8, 0x6F, 0x6B])
        #expect(encoder.encode(.close(code: .messageTooBig, reason: "")) == [0x88, 0x02, 0x03, 0xF1])
        #expect(encoder.encode(.close(code: nil, reason: "ignored")) == [0x88, 0x00])
    }

    // Control frames stay within 125 bytes; a reason is cut between characters, never inside one.
    @Test func controlPayloadsAreCutTo125Bytes() {
        let ping = encoder.encode(.ping([UInt8](repeating: 1, count: 200)))
        #expect(ping.count == 127 && ping[1] == 125)
        let reason = String(repeating: "é", count: 100)
        let close = encoder.encode(.close(code: .goingAway, reason: reason))
        #expect(close[1] == 124)
        let decoded = WebSocketWire.decode(WebSocketWire.masked(close))
        #expect(decoded.messages == [.close(code: .goingAway, reason: String(repeating: "é", count: 61))])
    }

    @Test func opcodes() {
        #expect(WebSocketOpcode.allCases.filter(\.isControl) == [.close, .ping, .pong])
        #expect(WebSocketOpcode.allCases.map(\.rawValue) == [0, 1, 2, 8, 9, 10])
    }
}
