import OSCCore
import Testing

/// Runs `body` on a view of `message`'s encoding.
private func withView<R>(_ message: OSCMessage, _ body: (OSCMessageView) throws -> R) throws -> R {
    try message.encoded().withUnsafeBytes { raw in try body(try OSCMessageView(raw)) }
}

@Suite struct OSCMessageViewTests {
    @Test func readsAddressAndTypeTagsInPlace() throws {
        try withView(OSCMessage("/knob/gain", [.float32(0.5), .string("x")])) { view in
            #expect(Array(view.addressBytes) == Array("/knob/gain".utf8))
            #expect(Array(view.typeTags) == Array("fs".utf8))
            #expect(view.address == "/knob/gain")
            #expect(view.hasAddress("/knob/gain"))
            #expect(!view.hasAddress("/knob/gai"))
            #expect(!view.hasAddress("/knob/gain2"))
            #expect(view.argumentCount == 2)
            #expect(view.bytes.count == 24)
        }
    }

    @Test func messageWithoutTypeTagsHasNoArguments() throws {
        let bytes = Array("/ping\0\0\0".utf8)
        try bytes.withUnsafeBytes { raw in
            let view = try OSCMessageView(raw)
            #expect(view.typeTags.isEmpty)
            #expect(view.argumentCount == 0)
            #expect(view.argument(at: 0) == nil)
            #expect(view.makeMessage() == OSCMessage("/ping"))
        }
    }

    @Test func numericGettersCoerceWithin_ihfd_andTF() throws {
        let message = OSCMessage(
            "/n", [.int32(-7), .int64(1 << 40), .float32(2.75), .double(-3.5), .true, .false, .string("s")])
        try withView(message) { view in
            #expect(view.float(at: 0) == -7)
            #expect(view.float(at: 1) == Float(1 << 40))
            #expect(view.float(at: 2) == 2.75)
            #expect(view.float(at: 3) == -3.5)
            #expect(view.float(at: 4) == 1)
            #expect(view.float(at: 5) == 0)
            #expect(view.float(at: 6) == nil)
            #expect(view.float(at: 7) == nil)

            #expect(view.int32(at: 0) == -7)
            #expect(view.int32(at: 1) == .max, "an int64 beyond Int32 clamps")
            #expect(view.int32(at: 2) == 2, "floats truncate toward zero")
            #expect(view.int32(at: 3) == -3)
            #expect(view.int32(at: 4) == 1)
            #expect(view.int32(at: 6) == nil)

            #expect(view.int64(at: 1) == 1 << 40)
            #expect(view.double(at: 2) == 2.75)
            #expect(view.double(at: 3) == -3.5)
            #expect(view.bool(at: 0) == true)
            #expect(view.bool(at: 5) == false)
            #expect(view.bool(at: 6) == nil)
        }
    }

    @Test func floatToIntegerCoercionClampsAndRefusesNaN() throws {
        let message = OSCMessage("/n", [.float32(.nan), .double(1e300), .float32(-.infinity)])
        try withView(message) { view in
            #expect(view.int32(at: 0) == nil)
            #expect(view.int64(at: 0) == nil)
            #expect(view.int32(at: 1) == .max)
            #expect(view.int64(at: 1) == .max)
            #expect(view.int32(at: 2) == .min)
            #expect(view.int64(at: 2) == .min)
        }
    }

    @Test func stringGettersAcceptStringsAndSymbols() throws {
        try withView(OSCMessage("/s", [.string("piano"), .symbol("sym"), .int32(1)])) { view in
            #expect(view.string(at: 0) == "piano")
            #expect(view.string(at: 1) == "sym")
            #expect(view.string(at: 2) == nil)
            #expect(view.stringBytes(at: 0).map { Array($0) } == Array("piano".utf8))
        }
    }

    @Test func otherGettersReadTheirOwnTypeOnly() throws {
        let tag = OSCTimeTag(rawValue: 0xDEAD_BEEF_0000_0001)
        let rgba = OSCRGBA(red: 1, green: 2, blue: 3, alpha: 4)
        let midi = OSCMIDI(port: 0, status: 0x80, data1: 60, data2: 0)
        let message = OSCMessage(
            "/o", [.blob([9, 8, 7]), .timeTag(tag), .character(65), .rgba(rgba), .midi(midi), .nil, .impulse])
        try withView(message) { view in
            #expect(view.blob(at: 0).map { Array($0) } == [9, 8, 7])
            #expect(view.timeTag(at: 1) == tag)
            #expect(view.character(at: 2) == 65)
            #expect(view.rgba(at: 3) == rgba)
            #expect(view.midi(at: 4) == midi)
            #expect(view.typeTag(at: 5) == OSCTypeTag.nil)
            #expect(view.typeTag(at: 6) == OSCTypeTag.impulse)
            #expect(view.blob(at: 1) == nil)
            #expect(view.timeTag(at: 0) == nil)
            #expect(view.character(at: 3) == nil)
            #expect(view.rgba(at: 4) == nil)
            #expect(view.midi(at: 3) == nil)
        }
    }

    @Test func arraysCountAsOneArgumentAndExposeTheirElements() throws {
        let message = OSCMessage(
            "/arr", [.int32(1), .array([.string("a"), .array([.float32(2)]), .blob([5])]), .true])
        try withView(message) { view in
            #expect(view.argumentCount == 3)
            let array = try #require(view.argument(at: 1))
            #expect(array.typeTag == OSCTypeTag.arrayStart)
            #expect(Array(array.elementTags) == Array("s[f]b".utf8))
            let elements = Array(array.elements)
            #expect(elements.count == 3)
            #expect(elements[0].string == "a")
            #expect(elements[1].elements.map { $0.float } == [2])
            #expect(elements[2].blob.map { Array($0) } == [5])
            #expect(view.bool(at: 2) == true)
            #expect(view.argument(at: 0)?.elements.map { $0.typeTag } == [])
            #expect(view.makeMessage() == message)
        }
    }

    @Test func iteratingArgumentsMatchesIndexedAccess() throws {
        var generator = PacketGenerator(seed: 77, libloTypesOnly: false)
        for _ in 0..<50 {
            let message = generator.message()
            try withView(message) { view in
                let iterated = view.arguments.map { $0.makeArgument() }
                let indexed = (0..<view.argumentCount).map { view.argument(at: $0)!.makeArgument() }
                #expect(iterated == message.arguments)
                #expect(indexed == message.arguments)
            }
        }
    }

    @Test func refusesBundles() {
        let bytes = OSCPacket.bundle(OSCBundle()).encoded()
        _ = bytes.withUnsafeBytes { raw in
            #expect(throws: OSCDecodingError.invalidAddress(offset: 0)) { try OSCMessageView(raw) }
        }
    }
}

@Suite struct OSCVisitTests {
    @Test func bareMessageComesWithImmediately() throws {
        let delivered = try visitResult(OSCMessage("/a", [.int32(1)]).encoded()).get()
        #expect(delivered.count == 1)
        #expect(delivered.first?.0 == OSCMessage("/a", [.int32(1)]))
        #expect(delivered.first?.1 == .immediately)
    }

    @Test func eachMessageComesWithItsInnermostBundlesTimeTag() throws {
        let outer = OSCTimeTag(rawValue: 1000)
        let inner = OSCTimeTag(rawValue: 2000)
        let innermost = OSCTimeTag(rawValue: 3000)
        let packet = OSCPacket.bundle(
            OSCBundle(
                timeTag: outer,
                [
                    .message(OSCMessage("/1")),
                    .bundle(
                        OSCBundle(
                            timeTag: inner,
                            [
                                .message(OSCMessage("/2")),
                                .bundle(OSCBundle(timeTag: innermost, [.message(OSCMessage("/3"))])),
                                .message(OSCMessage("/4")),
                            ])),
                    .message(OSCMessage("/5")),
                ]))
        let delivered = try visitResult(packet.encoded()).get()
        #expect(delivered.map { $0.0.address } == ["/1", "/2", "/3", "/4", "/5"])
        #expect(delivered.map { $0.1 } == [outer, inner, innermost, inner, outer])
    }

    @Test func aMalformedBundleDeliversNothing() {
        // The first element is fine, the last is not: nothing at all may reach the server.
        var bytes = OSCPacket.bundle(
            OSCBundle([.message(OSCMessage("/ok", [.int32(1)])), .message(OSCMessage("/bad", [.int32(2)]))])
        ).encoded()
        bytes[bytes.count - 7] = UInt8(ascii: "x")  // the `i` of the second message's type tags
        var calls = 0
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(OSCDecodingError) in
                try OSCPacket.visitMessages(in: raw) { _, _ in calls += 1 }
            }
        }
        #expect(calls == 0)
        #expect(result == .failure(.unknownTypeTag(UInt8(ascii: "x"), offset: bytes.count - 7)))
    }

    @Test func returnsTheNumberOfMessages() throws {
        let bytes = OSCPacket.bundle(OSCBundle(Array(repeating: .message(OSCMessage("/m")), count: 16))).encoded()
        let count = try bytes.withUnsafeBytes { raw throws(OSCDecodingError) in
            try OSCPacket.visitMessages(in: raw) { view, _ in #expect(view.hasAddress("/m")) }
        }
        #expect(count == 16)
    }

    @Test(arguments: [31, 32, 33, 100])
    func manyMessagesComeInOrderWithTheirTimeTags(count: Int) throws {
        // Past 32 messages visitMessages walks the packet a second time instead of using what
        // validation recorded; both paths must deliver the same.
        let elements: [OSCPacket] = (0..<count).map { index in
            index % 3 == 0
                ? .bundle(OSCBundle(timeTag: OSCTimeTag(rawValue: UInt64(index)), [.message(OSCMessage("/\(index)"))]))
                : .message(OSCMessage("/\(index)"))
        }
        let outer = OSCTimeTag(rawValue: 7777)
        let delivered = try visitResult(OSCPacket.bundle(OSCBundle(timeTag: outer, elements)).encoded()).get()
        #expect(delivered.map { $0.0.address } == (0..<count).map { "/\($0)" })
        let expectedTimes: [OSCTimeTag] = (0..<count).map { index in
            index % 3 == 0 ? OSCTimeTag(rawValue: UInt64(index)) : outer
        }
        #expect(delivered.map { $0.1 } == expectedTimes)
    }
}
