import OSCCore
import Testing

@Suite struct OSCStreamFramingTests {
    // A `/a ,i 1` message: "/a\0\0" ",i\0\0" 00 00 00 01.
    static let message: [UInt8] = [0x2F, 0x61, 0, 0, 0x2C, 0x69, 0, 0, 0, 0, 0, 1]
    // A packet that holds both SLIP special bytes, so that escaping is exercised.
    static let awkward: [UInt8] = [0x2F, 0xC0, 0xDB, 0xDC, 0xDD, 0xC0, 0xC0, 0xDB]

    @discardableResult
    static func decodeAll(
        _ framing: OSCFraming, chunks: [[UInt8]], limit: Int = OSCFraming.defaultMaximumFrameLength
    ) throws -> [[UInt8]] {
        var decoder = OSCFramingDecoder(framing: framing, maximumFrameLength: limit)
        var buffer = OSCFramingBuffer(capacity: 16)
        var frames: [[UInt8]] = []
        for chunk in chunks {
            buffer.write(chunk)
            while let frame = try decoder.decode(buffer: &buffer) { frames.append(Array(frame)) }
        }
        return frames
    }

    static func pieces(_ bytes: [UInt8], sizes: [Int]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var rest = bytes[...]
        for size in sizes where !rest.isEmpty {
            result.append(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        if !rest.isEmpty { result.append(Array(rest)) }
        return result
    }

    @Test func slipEncodingHasEndAtBothEndsAndEscapes() {
        #expect(OSCFraming.slip.encode([1, 0xC0, 2, 0xDB, 3]) == [0xC0, 1, 0xDB, 0xDC, 2, 0xDB, 0xDD, 3, 0xC0])
        #expect(OSCFraming.slip.encode([]) == [0xC0, 0xC0])
    }

    /// The first packet of a stream goes without its leading END (9.13: liblo drops a bundle
    /// that follows an END at the start of a connection); the length prefix has no such case.
    @Test func slipFirstPacketOfAStreamHasNoLeadingEnd() {
        var output: [UInt8] = []
        [UInt8]([1, 0xC0]).withUnsafeBytes { OSCFraming.slip.encode($0, into: &output, first: true) }
        #expect(output == [1, 0xDB, 0xDC, 0xC0])
        output = []
        [UInt8]([1, 2, 3, 4]).withUnsafeBytes { OSCFraming.lengthPrefix.encode($0, into: &output, first: true) }
        #expect(output == [0, 0, 0, 4, 1, 2, 3, 4])
    }

    @Test func lengthPrefixEncodingIsBigEndian() {
        let bytes = [UInt8](repeating: 7, count: 0x0102)
        let framed = OSCFraming.lengthPrefix.encode(bytes)
        #expect(Array(framed.prefix(4)) == [0, 0, 1, 2])
        #expect(Array(framed.dropFirst(4)) == bytes)
    }

    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func roundTripsSeveralFramesAtOnce(framing: OSCFraming) throws {
        let packets = [Self.message, Self.awkward, [UInt8](repeating: 0xC0, count: 300), Self.message]
        let stream = packets.flatMap { framing.encode($0) }
        #expect(try Self.decodeAll(framing, chunks: [stream]) == packets)
    }

    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func decodesFedByteByByte(framing: OSCFraming) throws {
        let packets = [Self.awkward, Self.message, Self.awkward]
        let stream = packets.flatMap { framing.encode($0) }
        #expect(try Self.decodeAll(framing, chunks: stream.map { [$0] }) == packets)
    }

    // liblo's TCP tests send a frame as 13 bytes, 20 bytes, then the rest.
    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func decodesFedInLibloPieces(framing: OSCFraming) throws {
        let long = (0..<200).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let packets = [long, Self.message, long]
        let stream = packets.flatMap { framing.encode($0) }
        #expect(try Self.decodeAll(framing, chunks: Self.pieces(stream, sizes: [13, 20])) == packets)
        #expect(try Self.decodeAll(framing, chunks: Self.pieces(stream, sizes: [13, 20, 1, 1, 100, 3])) == packets)
    }

    @Test func slipAcceptsSingleEndSenders() throws {
        var stream: [UInt8] = []
        for packet in [Self.message, Self.awkward] {
            stream += Array(OSCFraming.slip.encode(packet).dropFirst())
        }
        #expect(try Self.decodeAll(.slip, chunks: [stream]) == [Self.message, Self.awkward])
    }

    @Test func slipSkipsEmptyFramesBetweenEnds() throws {
        let stream: [UInt8] = [0xC0, 0xC0, 0xC0, 1, 2, 0xC0, 0xC0, 0xC0, 3, 0xC0]
        #expect(try Self.decodeAll(.slip, chunks: [stream]) == [[1, 2], [3]])
        #expect(try Self.decodeAll(.slip, chunks: stream.map { [$0] }) == [[1, 2], [3]])
    }

    @Test func slipKeepsAnIncompleteFrameUntilItsEnd() throws {
        #expect(try Self.decodeAll(.slip, chunks: [[0xC0, 1, 2, 0xDB]]) == [])
        #expect(try Self.decodeAll(.slip, chunks: [[0xC0, 1, 2, 0xDB], [0xDC, 0xC0]]) == [[1, 2, 0xC0]])
    }

    @Test func slipRefusesABadEscape() {
        #expect(throws: OSCFramingError.invalidEscape(byte: 0x41, offset: 2)) {
            try Self.decodeAll(.slip, chunks: [[0xC0, 1, 2, 0xDB, 0x41, 0xC0]])
        }
    }

    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func acceptsAFrameOfExactlyTheLimit(framing: OSCFraming) throws {
        let packet = [UInt8](repeating: 0xC0, count: 64)
        #expect(try Self.decodeAll(framing, chunks: [framing.encode(packet)], limit: 64) == [packet])
    }

    @Test(arguments: [OSCFraming.slip, .lengthPrefix])
    func refusesAFrameOverTheLimit(framing: OSCFraming) {
        let packet = [UInt8](repeating: 1, count: 65)
        #expect(throws: OSCFramingError.self) {
            try Self.decodeAll(framing, chunks: [framing.encode(packet)], limit: 64)
        }
    }

    @Test func slipRefusesAnOversizedFrameBeforeItsEnd() {
        // No END ever arrives: the decoder must stop at the limit, not buffer without bound.
        #expect(throws: OSCFramingError.frameTooLarge(length: 101, limit: 100)) {
            let chunks = [[0xC0]] + Array(repeating: [UInt8](repeating: 5, count: 10), count: 20)
            try Self.decodeAll(.slip, chunks: chunks, limit: 100)
        }
    }

    @Test func hugeLengthPrefixIsRefusedFromItsFourBytes() {
        // 0x7FFFFFFF announced, nothing else sent: refused at once, nothing of that size allocated.
        #expect(throws: OSCFramingError.frameTooLarge(length: 0x7FFF_FFFF, limit: 1 << 20)) {
            try Self.decodeAll(.lengthPrefix, chunks: [[0x7F, 0xFF], [0xFF, 0xFF]])
        }
        #expect(throws: OSCFramingError.frameTooLarge(length: 0xFFFF_FFFF, limit: 1 << 20)) {
            try Self.decodeAll(.lengthPrefix, chunks: [[0xFF, 0xFF, 0xFF, 0xFF, 1, 2]])
        }
    }

    @Test func lengthPrefixSkipsZeroLengthFrames() throws {
        let stream: [UInt8] = [0, 0, 0, 0] + OSCFraming.lengthPrefix.encode(Self.message) + [0, 0, 0, 0]
        #expect(try Self.decodeAll(.lengthPrefix, chunks: [stream]) == [Self.message])
    }

    @Test func bufferStaysBoundedOverAManyFrameStream() throws {
        var decoder = OSCSLIPDecoder()
        var buffer = OSCFramingBuffer(capacity: 64)
        let framed = OSCFraming.slip.encode(Self.message)
        var count = 0
        for _ in 0..<10_000 {
            buffer.write(framed)
            while let frame = try decoder.decode(buffer: &buffer) {
                #expect(frame.elementsEqual(Self.message))
                count += 1
            }
        }
        #expect(count == 10_000)
        #expect(buffer.readableBytes == 0)
    }

    @Test(arguments: [
        (UInt8(0xC0), OSCFraming?.some(.slip)), (0x00, .some(.lengthPrefix)), (UInt8(ascii: "G"), nil),
        (UInt8(ascii: "P"), nil), (UInt8(ascii: "/"), .some(.slip)), (UInt8(ascii: "#"), .some(.slip)),
        (0x01, nil), (0x7B, nil),
    ])
    func detectsFramingFromTheFirstByte(byte: UInt8, expected: OSCFraming?) {
        #expect(OSCFraming.detect(firstByte: byte) == expected)
    }
}
