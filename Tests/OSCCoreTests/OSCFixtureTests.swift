import OSCCore
import Testing

/// A packet and the exact bytes it encodes to, commented word by word.
struct Fixture: Sendable, CustomTestStringConvertible {
    var name: String
    var packet: OSCPacket
    var bytes: [UInt8]
    var testDescription: String { name }

    init(_ name: String, _ message: OSCMessage, _ bytes: [UInt8]) {
        self.init(name, packet: .message(message), bytes)
    }

    init(_ name: String, packet: OSCPacket, _ bytes: [UInt8]) {
        self.name = name
        self.packet = packet
        self.bytes = bytes
    }
}

// The address "/a" and its padding, shared by most fixtures.
private let slashA: [UInt8] = [0x2F, 0x61, 0x00, 0x00]  // "/a" NUL NUL

let fixtures: [Fixture] = [
    Fixture(
        "no arguments", OSCMessage("/a"),
        slashA + [
            0x2C, 0x00, 0x00, 0x00,  // "," NUL padding: liblo writes the type tags even when empty
        ]),
    Fixture(
        "i int32", OSCMessage("/a", [.int32(-2)]),
        slashA + [
            0x2C, 0x69, 0x00, 0x00,  // ",i" NUL pad
            0xFF, 0xFF, 0xFF, 0xFE,  // -2, big-endian two's complement
        ]),
    Fixture(
        "f float32", OSCMessage("/knob/gain", [.float32(0.5)]),
        [
            0x2F, 0x6B, 0x6E, 0x6F,  // "/kno"
            0x62, 0x2F, 0x67, 0x61,  // "b/ga"
            0x69, 0x6E, 0x00, 0x00,  // "in" NUL pad
            0x2C, 0x66, 0x00, 0x00,  // ",f" NUL pad
            0x3F, 0x00, 0x00, 0x00,  // 0.5, IEEE 754 big-endian
        ]),
    Fixture(
        "s string", OSCMessage("/a", [.string("hey")]),
        slashA + [
            0x2C, 0x73, 0x00, 0x00,  // ",s" NUL pad
            0x68, 0x65, 0x79, 0x00,  // "hey" NUL: no padding needed
        ]),
    Fixture(
        "s string of 4 bytes", OSCMessage("/a", [.string("four")]),
        slashA + [
            0x2C, 0x73, 0x00, 0x00,  // ",s" NUL pad
            0x66, 0x6F, 0x75, 0x72,  // "four"
            0x00, 0x00, 0x00, 0x00,  // NUL and 3 pad: a whole word, since the NUL is mandatory
        ]),
    Fixture(
        "b blob", OSCMessage("/a", [.blob([1, 2, 3])]),
        slashA + [
            0x2C, 0x62, 0x00, 0x00,  // ",b" NUL pad
            0x00, 0x00, 0x00, 0x03,  // size 3
            0x01, 0x02, 0x03, 0x00,  // the bytes, 1 pad
        ]),
    Fixture(
        "b empty blob", OSCMessage("/a", [.blob([])]),
        slashA + [
            0x2C, 0x62, 0x00, 0x00,  // ",b" NUL pad
            0x00, 0x00, 0x00, 0x00,  // size 0, no content, no padding
        ]),
    Fixture(
        "T F N I", OSCMessage("/a", [.true, .false, .nil, .impulse]),
        slashA + [
            0x2C, 0x54, 0x46, 0x4E,  // ",TFN"
            0x49, 0x00, 0x00, 0x00,  // "I" NUL pad; these types carry no data
        ]),
    Fixture(
        "t time tag", OSCMessage("/a", [.timeTag(OSCTimeTag(seconds: 0xE000_0001, fraction: 0x8000_0000))]),
        slashA + [
            0x2C, 0x74, 0x00, 0x00,  // ",t" NUL pad
            0xE0, 0x00, 0x00, 0x01,  // NTP seconds since 1900
            0x80, 0x00, 0x00, 0x00,  // fraction: half a second
        ]),
    Fixture(
        "h int64", OSCMessage("/a", [.int64(1_234_567_890_123)]),
        slashA + [
            0x2C, 0x68, 0x00, 0x00,  // ",h" NUL pad
            0x00, 0x00, 0x01, 0x1F,  // 1234567890123 = 0x0000011F_71FB04CB
            0x71, 0xFB, 0x04, 0xCB,
        ]),
    Fixture(
        "d double", OSCMessage("/a", [.double(3.14159)]),
        slashA + [
            0x2C, 0x64, 0x00, 0x00,  // ",d" NUL pad
            0x40, 0x09, 0x21, 0xF9,  // 3.14159, IEEE 754 big-endian
            0xF0, 0x1B, 0x86, 0x6E,
        ]),
    Fixture(
        "S symbol", OSCMessage("/a", [.symbol("sym")]),
        slashA + [
            0x2C, 0x53, 0x00, 0x00,  // ",S" NUL pad
            0x73, 0x79, 0x6D, 0x00,  // "sym" NUL
        ]),
    Fixture(
        "c character", OSCMessage("/a", [.character(UInt8(ascii: "A"))]),
        slashA + [
            0x2C, 0x63, 0x00, 0x00,  // ",c" NUL pad
            0x00, 0x00, 0x00, 0x41,  // 'A' as a 32-bit integer
        ]),
    Fixture(
        "r rgba", OSCMessage("/a", [.rgba(OSCRGBA(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44))]),
        slashA + [
            0x2C, 0x72, 0x00, 0x00,  // ",r" NUL pad
            0x11, 0x22, 0x33, 0x44,  // red green blue alpha
        ]),
    Fixture(
        "m midi", OSCMessage("/a", [.midi(OSCMIDI(port: 1, status: 0x90, data1: 60, data2: 100))]),
        slashA + [
            0x2C, 0x6D, 0x00, 0x00,  // ",m" NUL pad
            0x01, 0x90, 0x3C, 0x64,  // port, status (note on), note 60, velocity 100
        ]),
    Fixture(
        "[ ] array", OSCMessage("/a", [.array([.int32(1), .float32(2)])]),
        slashA + [
            0x2C, 0x5B, 0x69, 0x66,  // ",[if"
            0x5D, 0x00, 0x00, 0x00,  // "]" NUL pad; the brackets carry no data
            0x00, 0x00, 0x00, 0x01,  // 1
            0x40, 0x00, 0x00, 0x00,  // 2.0
        ]),
    Fixture(
        "nested arrays", OSCMessage("/a", [.array([.array([.int32(7)]), .string("x")]), .true]),
        slashA + [
            0x2C, 0x5B, 0x5B, 0x69,  // ",[[i"
            0x5D, 0x73, 0x5D, 0x54,  // "]s]T"
            0x00, 0x00, 0x00, 0x00,  // NUL pad
            0x00, 0x00, 0x00, 0x07,  // 7
            0x78, 0x00, 0x00, 0x00,  // "x" NUL pad
        ]),
    Fixture(
        "bundle", packet: .bundle(OSCBundle(timeTag: .immediately, [.message(OSCMessage("/a", [.int32(1)]))])),
        [
            0x23, 0x62, 0x75, 0x6E,  // "#bun"
            0x64, 0x6C, 0x65, 0x00,  // "dle" NUL
            0x00, 0x00, 0x00, 0x00,  // time tag 1: immediately
            0x00, 0x00, 0x00, 0x01,
            0x00, 0x00, 0x00, 0x0C,  // element size 12
            0x2F, 0x61, 0x00, 0x00,  // "/a" NUL pad
            0x2C, 0x69, 0x00, 0x00,  // ",i" NUL pad
            0x00, 0x00, 0x00, 0x01,  // 1
        ]),
    Fixture(
        "empty bundle", packet: .bundle(OSCBundle(timeTag: OSCTimeTag(rawValue: 0x0102_0304_0506_0708))),
        [
            0x23, 0x62, 0x75, 0x6E,  // "#bun"
            0x64, 0x6C, 0x65, 0x00,  // "dle" NUL
            0x01, 0x02, 0x03, 0x04,  // time tag seconds
            0x05, 0x06, 0x07, 0x08,  // time tag fraction
        ]),
    Fixture(
        "bundle in a bundle",
        packet: .bundle(
            OSCBundle(
                timeTag: OSCTimeTag(rawValue: 2),
                [.bundle(OSCBundle(timeTag: OSCTimeTag(rawValue: 3), [.message(OSCMessage("/a"))]))])),
        [
            0x23, 0x62, 0x75, 0x6E,  // "#bun"
            0x64, 0x6C, 0x65, 0x00,  // "dle" NUL
            0x00, 0x00, 0x00, 0x00,  // time tag 2
            0x00, 0x00, 0x00, 0x02,
            0x00, 0x00, 0x00, 0x1C,  // element size 28: the inner bundle
            0x23, 0x62, 0x75, 0x6E,  //   "#bun"
            0x64, 0x6C, 0x65, 0x00,  //   "dle" NUL
            0x00, 0x00, 0x00, 0x00,  //   time tag 3
            0x00, 0x00, 0x00, 0x03,
            0x00, 0x00, 0x00, 0x08,  //   element size 8
            0x2F, 0x61, 0x00, 0x00,  //   "/a" NUL pad
            0x2C, 0x00, 0x00, 0x00,  //   "," NUL pad
        ]),
]

@Suite struct OSCFixtureTests {
    @Test(arguments: fixtures)
    func encodesToTheFixtureBytes(_ fixture: Fixture) {
        let encoded = fixture.packet.encoded()
        #expect(hex(encoded) == hex(fixture.bytes))
        #expect(fixture.packet.encodedSize == fixture.bytes.count)
    }

    @Test(arguments: fixtures)
    func decodesTheFixtureBytes(_ fixture: Fixture) throws {
        #expect(try OSCPacket.decode(fixture.bytes) == fixture.packet)
        #expect(try OSCPacket.decode(fixture.bytes, options: .strict) == fixture.packet)
    }

    @Test(arguments: fixtures)
    func encodesIntoAndAppendingTo(_ fixture: Fixture) {
        let size = fixture.bytes.count
        var buffer = [UInt8](repeating: 0xAA, count: size + 8)
        let written = buffer.withUnsafeMutableBytes { fixture.packet.encode(into: $0) }
        #expect(written == size)
        #expect(Array(buffer[..<size]) == fixture.bytes)
        #expect(buffer[size...].allSatisfy { $0 == 0xAA }, "wrote past the encoded size")

        var appended: [UInt8] = [9, 9]
        #expect(fixture.packet.encode(appendingTo: &appended) == size)
        #expect(appended == [9, 9] + fixture.bytes)
    }

    @Test func stringsAreCutAtTheirFirstNUL() {
        // A C peer stops at the NUL; writing past it would produce bytes no peer reads the same way.
        let message = OSCMessage("/a\u{0}b", [.string("x\u{0}yz")])
        #expect(message.encoded() == slashA + [0x2C, 0x73, 0x00, 0x00, 0x78, 0x00, 0x00, 0x00])
        #expect(message.encodedSize == 12)
    }
}
