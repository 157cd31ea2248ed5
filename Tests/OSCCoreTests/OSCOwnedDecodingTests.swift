import OSCCore
import Testing

/// Decoded messages and bundles keep the packet's bytes (inline, or in one shared storage) and
/// read their values from there: these tests hold them to the same behaviour as values built by
/// hand.
@Suite struct OSCOwnedDecodingTests {
    /// Decodes `bytes`, which must be one message.
    static func message(_ bytes: [UInt8], options: OSCDecodingOptions = .default) throws -> OSCMessage {
        guard case .message(let message) = try OSCPacket.decode(bytes, options: options) else {
            Issue.record("not a message: \(hex(bytes))")
            return OSCMessage("/none")
        }
        return message
    }

    /// Decodes `bytes`, which must be one bundle.
    static func bundle(_ bytes: [UInt8]) throws -> OSCBundle {
        guard case .bundle(let bundle) = try OSCPacket.decode(bytes) else {
            Issue.record("not a bundle: \(hex(bytes))")
            return OSCBundle()
        }
        return bundle
    }

    @Test(arguments: 0..<200)
    func aDecodedMessageEncodesAsTheBytesItCameFrom(seed: Int) throws {
        var generator = PacketGenerator(seed: UInt64(seed) &+ 50_000, libloTypesOnly: false)
        let built = generator.message()
        let bytes = built.encoded()
        let decoded = try Self.message(bytes)
        #expect(decoded.encoded() == bytes, "\(hex(bytes))")
        #expect(decoded.encodedSize == bytes.count)
        #expect(decoded == built)
        #expect(decoded.hashValue == built.hashValue)
        #expect(decoded.argumentCount == built.arguments.count)
        #expect(decoded.address == built.address)
        #expect(decoded.hasAddress(built.address))
        #expect(!decoded.hasAddress(built.address + "x"))
        for index in -1...built.arguments.count {
            #expect(decoded.argument(at: index) == built.argument(at: index))
        }
        var appended = [UInt8]()
        #expect(decoded.encode(appendingTo: &appended) == bytes.count)
        #expect(appended == bytes)
    }

    @Test(arguments: 0..<60)
    func aDecodedBundleEncodesAsTheBytesItCameFrom(seed: Int) throws {
        var generator = PacketGenerator(seed: UInt64(seed) &+ 60_000, libloTypesOnly: false)
        let built = generator.bundle()
        let bytes = OSCPacket.bundle(built).encoded()
        let decoded = try Self.bundle(bytes)
        #expect(OSCPacket.bundle(decoded).encoded() == bytes, "\(hex(bytes))")
        #expect(decoded == built)
        #expect(decoded.hashValue == built.hashValue)
        #expect(decoded.timeTag == built.timeTag)
        #expect(decoded.elements == built.elements)
        #expect(Self.visited(.bundle(decoded)) == Self.visited(.bundle(built)))
    }

    /// Every message `forEachMessage` reaches, with its time tag.
    static func visited(_ packet: OSCPacket) -> [String] {
        var seen: [String] = []
        packet.forEachMessage { view, timeTag in
            seen.append("\(timeTag.rawValue) \(hex(view.makeMessage().encoded())) \(view.makeMessage())")
        }
        return seen
    }

    /// A message decoded leniently encodes in the canonical form, as the same values built by hand
    /// would: zero padding, a type tag string, nothing after the last argument.
    @Test func aLenientlyDecodedMessageEncodesCanonically() throws {
        // `/ab` with junk in its padding, `,sb`, a string with junk after its NUL, a 1-byte blob
        // with junk padding, then 4 trailing bytes.
        let bytes: [UInt8] =
            Array("/ab".utf8) + [0] + Array(",sb".utf8) + [0] + Array("hi".utf8) + [0, 0x55] + [0, 0, 0, 1]
            + [0x7F, 0xAA, 0xBB, 0xCC] + [9, 9, 9, 9]
        var bent = bytes
        bent[3] = 0  // the address's own NUL
        let options = OSCDecodingOptions(allowsTrailingBytes: true)
        let decoded = try Self.message(bent, options: options)
        let built = OSCMessage("/ab", [.string("hi"), .blob([0x7F])])
        #expect(decoded == built)
        #expect(decoded.encoded() == built.encoded())
        #expect(decoded.encodedSize == built.encodedSize)

        let untagged = try Self.message(Array("/no/tags".utf8) + [0, 0, 0, 0])
        #expect(untagged.argumentCount == 0)
        #expect(untagged.encoded() == OSCMessage("/no/tags").encoded())
    }

    /// An address that is not UTF-8 reads repaired, and encodes as the bytes it came as.
    @Test func anAddressThatIsNotUTF8KeepsItsBytes() throws {
        let bytes: [UInt8] = [0x2F, 0x61, 0xFF, 0] + Array(",i".utf8) + [0, 0] + [0, 0, 0, 7]
        let decoded = try Self.message(bytes)
        #expect(decoded.address == "/a\u{FFFD}")
        #expect(decoded.encoded() == bytes)
        #expect(decoded.withView { Array($0.addressBytes) } == [0x2F, 0x61, 0xFF])
    }

    @Test(arguments: [1, 23, 24, 25, 200])
    func aMessageOutlivesTheBufferItWasDecodedFrom(addressLength: Int) async throws {
        // Addresses of these lengths put the message on both sides of the inline size.
        let address = "/" + String(repeating: "k", count: addressLength)
        let built = OSCMessage(address, [.float32(0.5)])
        var bytes = built.encoded()
        let decoded = try Self.message(bytes)
        for index in bytes.indices { bytes[index] = 0xEE }
        let elsewhere = await Task.detached { decoded.arguments }.value
        #expect(elsewhere == [.float32(0.5)])
        #expect(decoded == built)
        #expect(decoded.encoded() == built.encoded())
    }

    /// `/a` with 0 to 5 integers: 8 to 32 bytes, across the 24 bytes a message keeps inline, with
    /// and without a 4-byte tail.
    @Test(arguments: 0...5)
    func messagesAroundTheInlineSizeReadTheirOwnBytes(integers: Int) throws {
        let built = OSCMessage("/a", (0..<integers).map { .int32(Int32(0x0102_0304 &* ($0 + 1))) })
        var bytes = built.encoded()
        #expect(bytes.count == [8, 12, 16, 24, 28, 32][integers])
        let decoded = try Self.message(bytes)
        for index in bytes.indices { bytes[index] = 0xEE }
        #expect(decoded == built)
        #expect(decoded.encoded() == built.encoded())
        #expect(decoded.withView { Array($0.bytes) } == built.encoded())
    }

    @Test func changingADecodedMessageLeavesItsCopiesAlone() throws {
        let bytes = OSCMessage("/synth/1/note", [.int32(60), .string("a string longer than fifteen")]).encoded()
        let decoded = try Self.message(bytes)
        var changed = decoded
        changed.arguments.append(.true)
        changed.arguments[0] = .int32(61)
        #expect(changed == OSCMessage("/synth/1/note", [.int32(61), .string("a string longer than fifteen"), .true]))
        #expect(decoded.encoded() == bytes)
        var renamed = decoded
        renamed.address = "/synth/2/note"
        #expect(renamed.arguments == decoded.arguments)
        #expect(renamed.encoded() != bytes)
        #expect(Set([decoded, try Self.message(bytes), OSCMessage(decoded.address, decoded.arguments)]).count == 1)
    }

    @Test func withViewReadsAMessageBuiltFromValues() {
        let built = OSCMessage("/mixed", [.int32(-3), .string("s"), .blob([1, 2, 3]), .array([.true])])
        let read = built.withView { view in (view.address, view.argumentCount, view.makeMessage()) }
        #expect(read.0 == "/mixed")
        #expect(read.1 == 4)
        #expect(read.2 == built)
        #expect(built.argument(at: 2) == .blob([1, 2, 3]))
        #expect(built.argument(at: 4) == nil)
    }

    /// More than the 32 messages validation records, in nested bundles: the layouts past them are
    /// found again, in order.
    @Test func aBundleOfManyNestedMessagesKeepsTheirOrderAndTimeTags() throws {
        func leaf(_ index: Int) -> OSCPacket { .message(OSCMessage("/m/\(index)", [.int32(Int32(index))])) }
        var inner = OSCBundle(timeTag: OSCTimeTag(rawValue: 7), (40..<60).map(leaf))
        inner = OSCBundle(timeTag: OSCTimeTag(rawValue: 6), [leaf(39), .bundle(inner), leaf(60)])
        let outer = OSCBundle(
            timeTag: OSCTimeTag(rawValue: 5), (0..<39).map(leaf) + [.bundle(inner)] + (61..<70).map(leaf))
        let bytes = OSCPacket.bundle(outer).encoded()
        let decoded = try Self.bundle(bytes)
        #expect(decoded == outer)
        let seen = Self.visited(.bundle(decoded))
        #expect(seen.count == 70)
        #expect(seen == Self.visited(.bundle(outer)))
        #expect(seen[40].hasPrefix("7 "))
        #expect(seen[39].hasPrefix("6 "))
        #expect(seen[69].hasPrefix("5 "))
        guard case .bundle(let nested) = decoded.elements[39] else {
            Issue.record("element 39 is not the nested bundle")
            return
        }
        #expect(nested == inner)
        #expect(OSCPacket.bundle(nested).encoded() == OSCPacket.bundle(inner).encoded())

        var changed = decoded
        changed.timeTag = OSCTimeTag(rawValue: 9)
        changed.elements.removeLast()
        #expect(changed.elements.count == outer.elements.count - 1)
        #expect(changed.timeTag.rawValue == 9)
        #expect(decoded == outer)
    }

    @Test func aDecodedValueDescribesItselfAsOneBuiltByHand() throws {
        let message = OSCMessage("/synth/1/note", [.int32(60), .string("a string longer than fifteen")])
        let bundle = OSCBundle(timeTag: OSCTimeTag(rawValue: 5), [.message(message), .message(OSCMessage("/a"))])
        let decoded = try Self.bundle(OSCPacket.bundle(bundle).encoded())
        #expect("\(decoded)" == "\(bundle)")
        #expect("\(decoded.elements[0])" == "\(OSCPacket.message(message))")
        #expect(
            "\(message)"
                == #"OSCMessage(address: "/synth/1/note", arguments: [.int32(60), .string("a string longer than fifteen")])"#
        )
    }

    @Test func anEmptyBundleDecodes() throws {
        let bytes = OSCPacket.bundle(OSCBundle(timeTag: OSCTimeTag(rawValue: 3))).encoded()
        let decoded = try Self.bundle(bytes)
        #expect(decoded.elements.isEmpty)
        #expect(decoded.timeTag.rawValue == 3)
        #expect(Self.visited(.bundle(decoded)).isEmpty)
        #expect(OSCPacket.bundle(decoded).encoded() == bytes)
    }
}
