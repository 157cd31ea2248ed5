import CLibLO
import OSCCore
import Testing

@Suite struct ScratchTests {
    @Test func compare() throws {
        let message = OSCMessage("/synth/1/note", [.int32(60), .float32(0.8), .string("piano"), .blob(Array(0..<5)), .true, .int64(1234567890123), .double(3.14159), .character(65), .midi(OSCMIDI(port: 1, status: 0x90, data1: 60, data2: 100)), .symbol("sym"), .nil, .impulse, .false, .timeTag(OSCTimeTag(rawValue: 0x1234_5678_9abc_def0))])
        let ours = message.encoded()
        let theirs = LibLO.serialise(message)!
        print(ours.map { String($0, radix: 16) }.joined(separator: " "))
        print(theirs.map { String($0, radix: 16) }.joined(separator: " "))
        #expect(ours == theirs)
        #expect(try LibLO.deserialise(ours).get() == message.arguments)
        #expect(try OSCPacket.decode(theirs) == .message(message))
        let bundle = OSCBundle(timeTag: OSCTimeTag(rawValue: 99), [.message(message), .bundle(OSCBundle([.message(OSCMessage("/a"))]))])
        #expect(bundle.encoded() == LibLO.serialise(bundle)!)
        #expect(try OSCPacket.decode(bundle.encoded()) == .bundle(bundle))
    }
}
