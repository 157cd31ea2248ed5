import CLibLO
import OSCCore
import Testing

/// Generated messages and bundles of every type liblo supports (it lacks arrays and `r`):
/// liblo's serialisation equals ours byte for byte, and each side decodes the other's bytes to the
/// same values.
@Suite struct OSCLibloDifferentialTests {
    @Test(arguments: 0..<400)
    func generatedMessagesMatchLiblo(seed: Int) throws {
        var generator = PacketGenerator(seed: UInt64(seed) &+ 1_000_000, libloTypesOnly: true)
        let message = generator.message()
        let ours = message.encoded()
        let theirs = try #require(LibLO.serialise(message))
        #expect(hex(ours) == hex(theirs))

        // liblo reads our bytes as the same message.
        #expect(try LibLO.deserialise(ours).get() == message.arguments)
        let path = ours.withUnsafeBytes { raw in
            lo_get_path(UnsafeMutableRawPointer(mutating: raw.baseAddress), raw.count).map { String(cString: $0) }
        }
        #expect(path == message.address)

        // We read liblo's bytes as the same message, through both decoding paths.
        #expect(try OSCPacket.decode(theirs, options: .strict) == .message(message))
        let viewed = try theirs.withUnsafeBytes { raw throws(OSCDecodingError) in try OSCMessageView(raw).makeMessage()
        }
        #expect(viewed == message)
    }

    @Test(arguments: 0..<150)
    func generatedBundlesMatchLiblo(seed: Int) throws {
        var generator = PacketGenerator(seed: UInt64(seed) &+ 2_000_000, libloTypesOnly: true)
        let bundle = Self.inThePast(generator.bundle(), random: &generator.random)
        let ours = OSCPacket.bundle(bundle).encoded()
        let theirs = try #require(LibLO.serialise(bundle))
        #expect(hex(ours) == hex(theirs))
        #expect(try OSCPacket.decode(theirs, options: .strict) == .bundle(bundle))

        // liblo's own receive path delivers our bundle's messages as our visit does.
        // A fresh socket name per run: a run that crashed leaves its socket files behind.
        let runID = UInt32.random(in: 0 ... .max)
        let receiver = try #require(LibLOReceiver(socketPath: "/tmp/knoblink-codec-\(runID)-\(seed)"))
        let delivered = try receiver.dispatch(ours).get()
        let visited = try visitResult(ours).get()
        #expect(delivered.count == visited.count)
        for (theirMessage, ourMessage) in zip(delivered, visited) {
            #expect(theirMessage.address == ourMessage.0.address)
            #expect(theirMessage.arguments == ourMessage.0.arguments)
            #expect(theirMessage.timeTag == ourMessage.1)
        }
    }

    @Test func charactersAboveASCIIMatchLiblo() throws {
        // liblo keeps `c` in a signed C char; check what it writes for the upper half.
        let message = OSCMessage("/c", [.character(200), .character(127)])
        let theirs = try #require(LibLO.serialise(message))
        #expect(try OSCPacket.decode(theirs) == .message(message))
        #expect(hex(message.encoded()) == hex(theirs))
    }

    /// liblo queues a bundle whose time is still to come instead of delivering it: keep every
    /// time tag in the past (or immediately) so that dispatch delivers at once.
    static func inThePast(_ bundle: OSCBundle, random: inout SeededGenerator) -> OSCBundle {
        var copy = bundle
        let seconds = UInt32.random(in: 0...3_800_000_000, using: &random)
        copy.timeTag =
            seconds % 5 == 0
            ? .immediately : OSCTimeTag(seconds: seconds, fraction: .random(in: 0 ... .max, using: &random))
        copy.elements = copy.elements.map { element in
            if case .bundle(let inner) = element {
                return .bundle(inThePast(inner, random: &random))
            }
            return element
        }
        return copy
    }
}
