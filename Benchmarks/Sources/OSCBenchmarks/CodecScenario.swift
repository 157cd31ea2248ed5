import BenchHarness
import CBenchPeer
import OSCCore

/// The three codec scenarios, KnobLink's side: each builds its packet from values (as liblo's side
/// does with `lo_message_add_*`), and each decoder reads every argument (as liblo's side does
/// through `lo_message_get_argv`).
enum CodecScenario: Int32, CaseIterable {
    case gain = 0
    case mixed = 1
    case bundle = 2

    var label: String {
        switch self {
        case .gain: "/knob/gain ,f 0.5"
        case .mixed: "/synth/1/note ,ifsbThd (128 B)"
        case .bundle: "bundle of 16 ,ifsbThd (2128 B)"
        }
    }

    static let blob: [UInt8] = Array(0..<64)

    static func mixedMessage() -> OSCMessage {
        OSCMessage(
            "/synth/1/note",
            [
                .int32(60), .float32(0.8), .string("piano"), .blob(blob), .true, .int64(1_234_567_890_123),
                .double(3.14159),
            ])
    }

    /// Builds the packet from its values; the encoders time this together with the encoding.
    func makePacket() -> OSCPacket {
        switch self {
        case .gain:
            .message(OSCMessage("/knob/gain", [.float32(0.5)]))
        case .mixed:
            .message(Self.mixedMessage())
        case .bundle:
            .bundle(OSCBundle(timeTag: .immediately, (0..<16).map { _ in .message(Self.mixedMessage()) }))
        }
    }

    /// liblo's bytes for this scenario.
    func libloBytes() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let size = kb_lo_packet(rawValue, &buffer, buffer.count)
        return Array(buffer[0..<size])
    }

    /// KnobLink: build from values and encode into a caller's buffer.
    func encodeContender() -> Contender {
        let scenario = self
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        return Contender("KnobLink") { iterations in
            var total = 0
            let start = cpuNanoseconds()
            for _ in 0..<iterations {
                total &+= scenario.makePacket().encode(into: buffer)
            }
            let elapsed = cpuNanoseconds() - start
            blackHole(total &+ Int(buffer[total & 15]))
            return elapsed
        }
    }

    /// KnobLink, in place: `OSCMessageView` (or `visitMessages` for the bundle) and every argument read.
    func viewDecodeContender() -> Contender {
        let bytes = libloBytes()
        let scenario = self
        return Contender("KnobLink view") { iterations in
            bytes.withUnsafeBytes { packet in
                var acc: UInt64 = 0
                let start = cpuNanoseconds()
                for _ in 0..<iterations {
                    switch scenario {
                    case .gain, .mixed:
                        let view = try! OSCMessageView(packet)
                        acc &+= Self.read(view)
                    case .bundle:
                        try! OSCPacket.visitMessages(in: packet) { view, _ in acc &+= Self.read(view) }
                    }
                }
                let elapsed = cpuNanoseconds() - start
                blackHole(acc)
                return elapsed
            }
        }
    }

    /// KnobLink, owned: `OSCPacket.decode` into values that outlive the buffer, and every argument
    /// read from the packet's own storage (`OSCPacket.forEachMessage`).
    func ownedDecodeContender() -> Contender {
        let bytes = libloBytes()
        return Contender("KnobLink owned") { iterations in
            bytes.withUnsafeBytes { packet in
                var acc: UInt64 = 0
                let start = cpuNanoseconds()
                for _ in 0..<iterations {
                    acc &+= Self.readInPlace(try! OSCPacket.decode(packet))
                }
                let elapsed = cpuNanoseconds() - start
                blackHole(acc)
                return elapsed
            }
        }
    }

    /// KnobLink, owned, read the easy way: every argument as an `OSCArgument` from `arguments`,
    /// which builds the array (and each blob's bytes) on every read.
    func ownedValuesDecodeContender() -> Contender {
        let bytes = libloBytes()
        return Contender("KnobLink owned, as values") { iterations in
            bytes.withUnsafeBytes { packet in
                var acc: UInt64 = 0
                let start = cpuNanoseconds()
                for _ in 0..<iterations {
                    acc &+= Self.read(try! OSCPacket.decode(packet))
                }
                let elapsed = cpuNanoseconds() - start
                blackHole(acc)
                return elapsed
            }
        }
    }

    func libloEncodeContender() -> Contender {
        let scenario = rawValue
        return Contender("liblo") { iterations in
            var sink: UInt64 = 0
            let elapsed = kb_lo_encode(scenario, iterations, &sink)
            blackHole(sink)
            return elapsed
        }
    }

    func libloDecodeContender() -> Contender {
        let scenario = rawValue
        return Contender("liblo") { iterations in
            var sink: UInt64 = 0
            let elapsed = kb_lo_decode(scenario, iterations, &sink)
            blackHole(sink)
            return elapsed
        }
    }

    // The same reads as liblo's side: numbers converted, the string's length, the blob's last byte.
    // The argument sequence walks the arguments once (the indexed getters walk from the start each time).
    @inline(__always)
    static func read(_ view: OSCMessageView) -> UInt64 {
        var acc: UInt64 = 0
        for argument in view.arguments {
            switch argument.typeTag {
            case UInt8(ascii: "i"): acc &+= UInt64(truncatingIfNeeded: argument.int32!)
            case UInt8(ascii: "f"): acc &+= UInt64(argument.float! * 1000)
            case UInt8(ascii: "s"): acc &+= UInt64(argument.stringBytes!.count)
            case UInt8(ascii: "b"):
                let blob = argument.blob!
                acc &+= UInt64(blob.count) &+ UInt64(blob[63])
            case UInt8(ascii: "T"): acc &+= 1
            case UInt8(ascii: "h"): acc &+= UInt64(truncatingIfNeeded: argument.int64!)
            case UInt8(ascii: "d"): acc &+= UInt64(argument.double! * 1000)
            default: break
            }
        }
        return acc
    }

    static func readInPlace(_ packet: OSCPacket) -> UInt64 {
        var acc: UInt64 = 0
        packet.forEachMessage { view, _ in acc &+= read(view) }
        return acc
    }

    static func read(_ packet: OSCPacket) -> UInt64 {
        switch packet {
        case .message(let message):
            var acc: UInt64 = 0
            for argument in message.arguments {
                switch argument {
                case .int32(let value): acc &+= UInt64(truncatingIfNeeded: value)
                case .float32(let value): acc &+= UInt64(value * 1000)
                case .string(let value): acc &+= UInt64(value.utf8.count)
                case .blob(let value): acc &+= UInt64(value.count) &+ UInt64(value[63])
                case .true: acc &+= 1
                case .int64(let value): acc &+= UInt64(truncatingIfNeeded: value)
                case .double(let value): acc &+= UInt64(value * 1000)
                default: break
                }
            }
            return acc
        case .bundle(let bundle):
            var acc: UInt64 = 0
            for element in bundle.elements { acc &+= read(element) }
            return acc
        }
    }
}
