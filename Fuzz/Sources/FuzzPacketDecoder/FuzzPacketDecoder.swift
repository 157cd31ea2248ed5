import FuzzSupport
import OSCCore

/// Decodes the input as one OSC packet in every form KnobLink offers and checks that they agree:
/// the owned form (`OSCPacket.decode`), the in-place forms (`visitMessages`, `OSCMessageView`),
/// the strict options (never more accepting than the default), and that decode → encode → decode
/// gives back the same packet and the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacketDecoder(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let owned: OSCPacket?
    do {
        owned = try OSCPacket.decode(bytes)
    } catch {
        fuzzCheck(error.offset >= 0 && error.offset <= count, "error \(error) points outside \(count) bytes")
        owned = nil
    }

    var viewed: [OSCMessage] = []
    let visited = try? OSCPacket.visitMessages(in: bytes) { view, _ in viewed.append(view.makeMessage()) }
    fuzzCheck((visited != nil) == (owned != nil), "visitMessages and decode disagree on accepting the packet")

    if count > 0 && start[0] != UInt8(ascii: "#") {
        let view = try? OSCMessageView(bytes)
        fuzzCheck((view != nil) == (owned != nil), "OSCMessageView and decode disagree on accepting the message")
    }
    if (try? OSCPacket.decode(bytes, options: .strict)) != nil {
        fuzzCheck(owned != nil, "the strict options accept a packet the default options refuse")
    }

    guard let owned else { return 0 }
    let messages = owned.flattenedMessages
    fuzzCheck(visited == messages.count, "visitMessages delivered \(visited ?? -1) of \(messages.count) messages")
    for (fromView, fromOwned) in zip(viewed, messages) {
        fuzzCheck(
            fromView == fromOwned || fromView.encoded() == fromOwned.encoded(),
            "the view's message \(fromView) differs from the owned \(fromOwned)")
    }

    // The owned packet read in place, from its own copy of the bytes, gives the same messages.
    var reread: [[UInt8]] = []
    owned.forEachMessage { view, _ in reread.append(view.makeMessage().encoded()) }
    fuzzCheck(reread == viewed.map { $0.encoded() }, "forEachMessage and visitMessages read different messages")
    // Built again from the values it reads, the packet is equal to it.
    fuzzCheck(owned.rebuilt == owned || owned.containsNaN, "the owned packet's values make another packet")

    let encoded = owned.encoded()
    fuzzCheck(
        encoded.count == owned.encodedSize, "encoded \(encoded.count) bytes, encodedSize says \(owned.encodedSize)")
    let again: OSCPacket
    do {
        again = try OSCPacket.decode(encoded, options: .strict)
    } catch {
        fatalError("KnobLink cannot decode its own encoding of \(owned): \(error)")
    }
    // NaN arguments make == false however faithful the round trip is; their bytes still must match.
    fuzzCheck(again == owned || owned.containsNaN, "decode(encode(p)) is \(again), p is \(owned)")
    fuzzCheck(again.encoded() == encoded, "encode(decode(encode(p))) differs from encode(p)")
    return 0
}

extension OSCPacket {
    fileprivate var flattenedMessages: [OSCMessage] {
        switch self {
        case .message(let message): [message]
        case .bundle(let bundle): bundle.elements.flatMap(\.flattenedMessages)
        }
    }

    /// The same packet, built by hand from the values this one reads.
    fileprivate var rebuilt: OSCPacket {
        switch self {
        case .message(let message): .message(OSCMessage(message.address, message.arguments))
        case .bundle(let bundle): .bundle(OSCBundle(timeTag: bundle.timeTag, bundle.elements.map(\.rebuilt)))
        }
    }

    fileprivate var containsNaN: Bool {
        flattenedMessages.contains { $0.arguments.contains(where: \.containsNaN) }
    }
}

extension OSCArgument {
    fileprivate var containsNaN: Bool {
        switch self {
        case .float32(let value): value.isNaN
        case .double(let value): value.isNaN
        case .array(let elements): elements.contains(where: \.containsNaN)
        default: false
        }
    }
}
