import OSCCore

/// SplitMix64: a small seeded generator, so that generated cases are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generates random arguments, messages and bundles.
struct PacketGenerator {
    var random: SeededGenerator
    /// Leave out what liblo cannot represent (arrays and `r`).
    var libloTypesOnly: Bool

    init(seed: UInt64, libloTypesOnly: Bool) {
        random = SeededGenerator(seed: seed)
        self.libloTypesOnly = libloTypesOnly
    }

    mutating func string(maxLength: Int = 20) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.é€😀")
        let length = Int.random(in: 0...maxLength, using: &random)
        return String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
    }

    mutating func address() -> String {
        let parts = Int.random(in: 1...4, using: &random)
        return (0..<parts).map { _ in "/" + string(maxLength: 8).replacingSlashes() }.joined()
    }

    mutating func argument(depth: Int = 0) -> OSCArgument {
        let kinds = libloTypesOnly ? 15 : 17
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .int32(Int32.random(in: .min ... .max, using: &random))
        case 1: return .float32(Float(bitPattern: UInt32.random(in: 0 ... .max, using: &random)).nonNaN)
        case 2: return .string(string())
        case 3:
            // liblo's lo_blob_new refuses size 0, so the liblo cases use blobs of at least one byte.
            let count = Int.random(in: (libloTypesOnly ? 1 : 0)...70, using: &random)
            return .blob((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 4: return .true
        case 5: return .false
        case 6: return .nil
        case 7: return .impulse
        case 8: return .timeTag(OSCTimeTag(rawValue: UInt64.random(in: 0 ... .max, using: &random)))
        case 9: return .int64(Int64.random(in: .min ... .max, using: &random))
        case 10: return .double(Double(bitPattern: UInt64.random(in: 0 ... .max, using: &random)).nonNaN)
        case 11: return .symbol(string())
        // liblo stores `c` in a C `char`, so only 7-bit characters survive its round trip unchanged.
        case 12: return .character(UInt8.random(in: 1...127, using: &random))
        case 13:
            return .midi(OSCMIDI(rawValue: UInt32.random(in: 0 ... .max, using: &random)))
        case 14: return .int32(Int32.random(in: -100...100, using: &random))
        case 15: return .rgba(OSCRGBA(rawValue: UInt32.random(in: 0 ... .max, using: &random)))
        default:
            guard depth < 3 else {
                return .array([])
            }
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in argument(depth: depth + 1) })
        }
    }

    mutating func message() -> OSCMessage {
        OSCMessage(address(), (0..<Int.random(in: 0...8, using: &random)).map { _ in argument() })
    }

    mutating func bundle(depth: Int = 1, maxDepth: Int = 4) -> OSCBundle {
        let count = Int.random(in: 0...4, using: &random)
        let elements: [OSCPacket] = (0..<count).map { _ in
            depth < maxDepth && Int.random(in: 0..<4, using: &random) == 0
                ? .bundle(bundle(depth: depth + 1, maxDepth: maxDepth)) : .message(message())
        }
        return OSCBundle(timeTag: OSCTimeTag(rawValue: UInt64.random(in: 0 ... .max, using: &random)), elements)
    }
}

extension String {
    func replacingSlashes() -> String {
        String(map { $0 == "/" ? "_" : $0 })
    }
}

extension Float {
    /// NaN is never equal to itself, which would make every comparison of values fail.
    var nonNaN: Float { isNaN ? 1.5 : self }
}

extension Double {
    var nonNaN: Double { isNaN ? 2.5 : self }
}

/// Hex dump with a space between bytes, as in the failure messages and Docs/OSC.md.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
}

/// Decodes with typed errors into a `Result`, so tests can compare outcomes with `==`.
func decodeResult(_ bytes: [UInt8], options: OSCDecodingOptions = .default) -> Result<OSCPacket, OSCDecodingError> {
    Result { () throws(OSCDecodingError) in try OSCPacket.decode(bytes, options: options) }
}

/// The messages `visitMessages` delivers, with their time tags, or its error.
func visitResult(
    _ bytes: [UInt8], options: OSCDecodingOptions = .default
) -> Result<[(OSCMessage, OSCTimeTag)], OSCDecodingError> {
    bytes.withUnsafeBytes { raw in
        var delivered: [(OSCMessage, OSCTimeTag)] = []
        do throws(OSCDecodingError) {
            try OSCPacket.visitMessages(in: raw, options: options) { view, timeTag in
                delivered.append((view.makeMessage(), timeTag))
            }
            return .success(delivered)
        } catch {
            return .failure(error)
        }
    }
}
