import CLibLO
import OSCCore
import Testing

/// Bytes from a string, `\0` included.
private func ascii(_ string: String) -> [UInt8] {
    Array(string.utf8)
}

/// A 32-bit big-endian word.
private func word(_ value: Int32) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
}

private let bundleHeader = ascii("#bundle\0") + [0, 0, 0, 0, 0, 0, 0, 1]

/// Malformed input, the error it must produce, and what liblo's `lo_message_deserialise` does
/// with it (`nil` where liblo has no opinion: bundles, which only its server parses).
struct MalformedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var options: OSCDecodingOptions = .default
    var error: OSCDecodingError
    var libloRejects: Bool?
    var testDescription: String { name }
}

let malformedCases: [MalformedCase] = [
    // liblo's own cases (its testlo.c), ported.
    MalformedCase(name: "zero size", bytes: [], error: .emptyPacket(offset: 0), libloRejects: true),
    MalformedCase(
        name: "path not NUL-terminated", bytes: ascii("/abc"), error: .unterminatedString(offset: 0),
        libloRejects: true),
    MalformedCase(
        name: "non-zero padding after the path", bytes: ascii("/a\0x,\0\0\0"), options: .strict,
        error: .nonZeroPadding(offset: 3), libloRejects: true),
    MalformedCase(
        name: "non-zero padding after the type tags", bytes: ascii("/a\0\0,i\0x") + word(1), options: .strict,
        error: .nonZeroPadding(offset: 7), libloRejects: true),
    MalformedCase(
        name: "non-zero padding after a string", bytes: ascii("/a\0\0,s\0\0ab\0x"), options: .strict,
        error: .nonZeroPadding(offset: 11), libloRejects: true),
    MalformedCase(
        name: "non-zero padding after a blob", bytes: ascii("/a\0\0,b\0\0") + word(1) + [7, 0, 1, 0],
        options: .strict, error: .nonZeroPadding(offset: 14), libloRejects: true),
    MalformedCase(
        name: "missing type tags (strict)", bytes: ascii("/a\0\0"), options: .strict,
        error: .missingTypeTags(offset: 4), libloRejects: true),
    MalformedCase(
        name: "type tags without the leading comma", bytes: ascii("/a\0\0i\0\0\0") + word(1),
        error: .typeTagsWithoutComma(offset: 4), libloRejects: true),
    MalformedCase(
        name: "empty type tags without a comma", bytes: ascii("/a\0\0\0\0\0\0"),
        error: .typeTagsWithoutComma(offset: 4), libloRejects: true),
    MalformedCase(
        name: "type tags not NUL-terminated", bytes: ascii("/a\0\0,iii"), error: .unterminatedString(offset: 4),
        libloRejects: true),
    MalformedCase(
        name: "too little argument data", bytes: ascii("/a\0\0,ii\0") + word(1),
        error: .truncated(needed: 4, available: 0, offset: 12), libloRejects: true),
    MalformedCase(
        name: "too much argument data", bytes: ascii("/a\0\0,i\0\0") + word(1) + word(2),
        error: .trailingBytes(count: 4, offset: 12), libloRejects: true),
    MalformedCase(
        name: "blob length larger than the message", bytes: ascii("/a\0\0,b\0\0") + word(999_999) + [1, 2, 3, 4],
        error: .blobSizeOutOfBounds(size: 999_999, available: 4, offset: 8), libloRejects: true),
    MalformedCase(
        name: "liblo's ,bs with blob length 999999", bytes: ascii("/a\0\0,bs\0") + word(999_999) + ascii("xyz\0"),
        error: .blobSizeOutOfBounds(size: 999_999, available: 4, offset: 8), libloRejects: true),

    // Beyond liblo's list.
    MalformedCase(
        name: "size not a multiple of 4", bytes: ascii("/a\0\0,\0"), error: .misaligned(size: 6, offset: 0),
        libloRejects: true),
    MalformedCase(
        name: "address without a slash", bytes: ascii("ab\0\0,\0\0\0"), error: .invalidAddress(offset: 0),
        libloRejects: false),
    MalformedCase(
        name: "unknown type tag", bytes: ascii("/a\0\0,ix\0") + word(1), error: .unknownTypeTag(0x78, offset: 6),
        libloRejects: true),
    MalformedCase(
        name: "string argument without NUL", bytes: ascii("/a\0\0,s\0\0abcd"), error: .unterminatedString(offset: 8),
        libloRejects: true),
    MalformedCase(
        name: "string argument missing", bytes: ascii("/a\0\0,s\0\0"),
        error: .truncated(needed: 4, available: 0, offset: 8), libloRejects: true),
    MalformedCase(
        name: "blob size missing", bytes: ascii("/a\0\0,b\0\0"), error: .truncated(needed: 4, available: 0, offset: 8),
        libloRejects: true),
    MalformedCase(
        name: "negative blob size", bytes: ascii("/a\0\0,b\0\0") + word(-4) + [0, 0, 0, 0],
        error: .blobSizeOutOfBounds(size: -4, available: 4, offset: 8), libloRejects: true),
    MalformedCase(
        name: "huge blob size", bytes: ascii("/a\0\0,b\0\0") + word(.max),
        error: .blobSizeOutOfBounds(size: Int(Int32.max), available: 0, offset: 8), libloRejects: true),
    MalformedCase(
        name: "int64 cut short", bytes: ascii("/a\0\0,h\0\0") + word(1),
        error: .truncated(needed: 8, available: 4, offset: 8), libloRejects: true),
    MalformedCase(
        name: "array not closed", bytes: ascii("/a\0\0,[i\0") + word(1), error: .unclosedArray(offset: 5),
        libloRejects: true),
    MalformedCase(
        name: "inner array not closed", bytes: ascii("/a\0\0,[[i]\0\0\0") + word(1), error: .unclosedArray(offset: 5),
        libloRejects: true),
    MalformedCase(
        name: "unbalanced ]", bytes: ascii("/a\0\0,i]\0") + word(1), error: .unbalancedArrayEnd(offset: 6),
        libloRejects: true),
    MalformedCase(
        name: "array nested 9 deep", bytes: ascii("/a\0\0,[[[[[[[[[]]]]]]]]]\0"),
        error: .arrayNestingTooDeep(depth: 9, offset: 13), libloRejects: true),
    MalformedCase(
        name: "bad bundle header", bytes: ascii("#bundlX\0") + [0, 0, 0, 0, 0, 0, 0, 1],
        error: .badBundleHeader(offset: 0)),
    MalformedCase(name: "short bad bundle header", bytes: ascii("#bx\0"), error: .badBundleHeader(offset: 0)),
    MalformedCase(
        name: "bundle without a time tag", bytes: ascii("#bundle\0"),
        error: .truncated(needed: 16, available: 8, offset: 0)),
    MalformedCase(
        name: "bundle cut in its header", bytes: ascii("#bun"), error: .truncated(needed: 16, available: 4, offset: 0)),
    MalformedCase(
        name: "element size past the end", bytes: bundleHeader + word(100) + ascii("/a\0\0,\0\0\0"),
        error: .elementSizeOutOfBounds(size: 100, available: 8, offset: 16)),
    MalformedCase(
        name: "huge element size", bytes: bundleHeader + word(.max),
        error: .elementSizeOutOfBounds(size: Int(Int32.max), available: 0, offset: 16)),
    MalformedCase(
        name: "negative element size", bytes: bundleHeader + word(-8) + ascii("/a\0\0,\0\0\0"),
        error: .elementSizeOutOfBounds(size: -8, available: 8, offset: 16)),
    MalformedCase(
        name: "empty element", bytes: bundleHeader + word(0), error: .emptyPacket(offset: 20)),
    MalformedCase(
        name: "misaligned element", bytes: bundleHeader + word(5) + ascii("/a\0\0,\0\0\0"),
        error: .misaligned(size: 5, offset: 20)),
    MalformedCase(
        name: "malformed message in a bundle", bytes: bundleHeader + word(8) + ascii("/a\0\0,x\0\0"),
        error: .unknownTypeTag(0x78, offset: 25)),
    MalformedCase(
        name: "bundles nested 9 deep", bytes: nestedBundles(depth: 9),
        error: .bundleNestingTooDeep(depth: 9, offset: 160)),
    MalformedCase(
        name: "bundles nested 3 deep, limit 2", bytes: nestedBundles(depth: 3),
        options: OSCDecodingOptions(maximumBundleDepth: 2), error: .bundleNestingTooDeep(depth: 3, offset: 40)),
]

/// `depth` bundles, each the only element of the one around it, with one message in the innermost.
func nestedBundles(depth: Int) -> [UInt8] {
    var packet = OSCPacket.message(OSCMessage("/in"))
    for _ in 0..<depth {
        packet = .bundle(OSCBundle(timeTag: .immediately, [packet]))
    }
    return packet.encoded()
}

@Suite struct OSCMalformedInputTests {
    @Test(arguments: malformedCases)
    func refusesWithTheExpectedErrorAndOffset(_ malformed: MalformedCase) {
        #expect(decodeResult(malformed.bytes, options: malformed.options) == .failure(malformed.error))
        if case .failure(let error) = visitResult(malformed.bytes, options: malformed.options) {
            #expect(error == malformed.error)
        } else {
            Issue.record("visitMessages accepted what decode refuses")
        }
    }

    @Test(arguments: malformedCases.filter { $0.libloRejects != nil })
    func libloAgrees(_ malformed: MalformedCase) {
        guard !malformed.bytes.isEmpty else {
            return
        }
        let rejected: Bool
        if case .failure = LibLO.deserialise(malformed.bytes) {
            rejected = true
        } else {
            rejected = false
        }
        #expect(rejected == malformed.libloRejects)
    }

    @Test func defaultOptionsAcceptWhatOnlyStrictRefuses() throws {
        // Non-zero padding is skipped unread by default...
        #expect(try OSCPacket.decode(ascii("/a\0x,i\0y") + word(5)) == .message(OSCMessage("/a", [.int32(5)])))
        // ...and a message without a type tag string has no arguments, as OSC 1.0 asks.
        #expect(try OSCPacket.decode(ascii("/abcdef\0")) == .message(OSCMessage("/abcdef")))
        // Trailing bytes and addresses without a slash have their own switches.
        #expect(
            try OSCPacket.decode(
                ascii("/a\0\0,\0\0\0") + word(1), options: OSCDecodingOptions(allowsTrailingBytes: true))
                == .message(OSCMessage("/a")))
        #expect(
            try OSCPacket.decode(ascii("ab\0\0,\0\0\0"), options: OSCDecodingOptions(requiresSlashAddress: false))
                == .message(OSCMessage("ab")))
        #expect(
            try OSCPacket.decode(nestedBundles(depth: 9), options: OSCDecodingOptions(maximumBundleDepth: 9))
                == decodeResult(nestedBundles(depth: 9), options: OSCDecodingOptions(maximumBundleDepth: 20)).get())
    }

    @Test func errorsNameTheirOffset() {
        #expect(OSCDecodingError.unknownTypeTag(0x78, offset: 25).offset == 25)
        #expect(OSCDecodingError.truncated(needed: 16, available: 4, offset: 3).offset == 3)
    }

    /// Every proper prefix of a message fails under strict options; a bundle's prefix decodes only
    /// where it ends exactly after one of its top-level elements.
    @Test(arguments: 0..<60)
    func truncationAtEveryOffset(seed: Int) throws {
        var generator = PacketGenerator(seed: UInt64(seed) &+ 3_000_000, libloTypesOnly: false)
        let packet: OSCPacket = seed % 3 == 0 ? .bundle(generator.bundle()) : .message(generator.message())
        let bytes = packet.encoded()
        var boundaries: Set<Int> = []
        if case .bundle(let bundle) = packet {
            var end = 16
            boundaries.insert(end)
            for element in bundle.elements {
                end += 4 + element.encodedSize
                boundaries.insert(end)
            }
        }
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            let result = decodeResult(prefix, options: .strict)
            if boundaries.contains(length) {
                guard case .success(.bundle(let partial)) = result, case .bundle(let whole) = packet else {
                    Issue.record("prefix \(length) at an element boundary did not decode: \(result)")
                    continue
                }
                #expect(partial.elements == Array(whole.elements.prefix(partial.elements.count)))
            } else {
                guard case .failure(let error) = result else {
                    Issue.record("prefix of \(length) of \(bytes.count) bytes decoded: \(hex(prefix))")
                    continue
                }
                #expect(error.offset <= length)
                if case .failure(let visitError) = visitResult(prefix, options: .strict) {
                    #expect(visitError == error)
                } else {
                    Issue.record("visitMessages accepted a prefix that decode refuses")
                }
            }
        }
    }

    @Test(arguments: 0..<200)
    func randomBitFlipsNeverCrash(seed: Int) {
        var generator = PacketGenerator(seed: UInt64(seed) &+ 4_000_000, libloTypesOnly: false)
        let packet: OSCPacket = seed % 2 == 0 ? .bundle(generator.bundle(maxDepth: 3)) : .message(generator.message())
        let original = packet.encoded()
        for _ in 0..<20 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator.random) {
                let bit = Int.random(in: 0..<(bytes.count * 8), using: &generator.random)
                bytes[bit / 8] ^= UInt8(1 << (bit % 8))
            }
            Self.exerciseEverything(bytes)
        }
    }

    /// With liblo's own rules switched on (type tags required, zero padding, any address), we accept
    /// exactly the damaged messages that `lo_message_deserialise` accepts, and read the same values.
    @Test(arguments: 0..<200)
    func bitFlippedMessagesAsLibloJudgesThem(seed: Int) {
        let libloRules = OSCDecodingOptions(
            allowsMissingTypeTags: false, requiresZeroPadding: true, requiresSlashAddress: false)
        var generator = PacketGenerator(seed: UInt64(seed) &+ 5_000_000, libloTypesOnly: true)
        let original = generator.message().encoded()
        for _ in 0..<20 {
            var bytes = original
            let bit = Int.random(in: 0..<(bytes.count * 8), using: &generator.random)
            bytes[bit / 8] ^= UInt8(1 << (bit % 8))
            let ours = decodeResult(bytes, options: libloRules)
            switch (ours, LibLO.deserialise(bytes)) {
            case (.success(.message(let message)), .success(let arguments)):
                #expect(message.arguments == arguments, "\(hex(bytes))")
            case (.failure, .failure):
                break
            case (let ours, let theirs):
                Issue.record("ours \(ours), liblo \(theirs) for \(hex(bytes))")
            }
        }
    }

    @Test func randomBytesNeverCrash() {
        var random = SeededGenerator(seed: 42)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...16, using: &random) * 4
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            // Give most of them a plausible start so that decoding gets past the first check.
            if count >= 8 && Bool.random(using: &random) {
                bytes.replaceSubrange(0..<4, with: ascii("/a\0\0"))
                bytes[4] = UInt8(ascii: ",")
            }
            Self.exerciseEverything(bytes)
        }
    }

    /// liblo's server check: a `,bs` message whose blob claims 999999 bytes, inside a bundle too.
    @Test func hugeBlobInsideABundle() {
        let message = ascii("/a\0\0,bs\0") + word(999_999) + ascii("xyz\0")
        let bytes = bundleHeader + word(Int32(message.count)) + message
        #expect(decodeResult(bytes) == .failure(.blobSizeOutOfBounds(size: 999_999, available: 4, offset: 28)))
    }

    /// Decodes `bytes` every way there is and reads every argument of whatever decodes.
    static func exerciseEverything(_ bytes: [UInt8]) {
        for options in [OSCDecodingOptions.default, .strict, OSCDecodingOptions(allowsTrailingBytes: true)] {
            let decoded = decodeResult(bytes, options: options)
            let visited = visitResult(bytes, options: options)
            switch (decoded, visited) {
            case (.success(let packet), .success(let messages)):
                #expect(packet.encodedSize > 0)
                #expect(messages.count == Self.messageCount(packet))
            case (.failure(let left), .failure(let right)):
                #expect(left == right)
                #expect(left.offset >= 0 && left.offset <= bytes.count)
            default:
                Issue.record("decode and visitMessages disagree on \(hex(bytes))")
            }
            bytes.withUnsafeBytes { raw in
                guard let view = try? OSCMessageView(raw, options: options) else {
                    return
                }
                for index in 0..<view.argumentCount {
                    _ = view.float(at: index)
                    _ = view.int64(at: index)
                    _ = view.string(at: index)
                    _ = view.blob(at: index)
                    _ = view.argument(at: index)?.elements.map { $0.makeArgument() }
                }
                _ = view.makeMessage()
            }
        }
    }

    static func messageCount(_ packet: OSCPacket) -> Int {
        switch packet {
        case .message: 1
        case .bundle(let bundle): bundle.elements.reduce(0) { $0 + messageCount($1) }
        }
    }
}

/// The examples of Docs/OSC.md, so that the documentation cannot drift from the code.
@Suite struct OSCDocumentationExampleTests {
    @Test func unknownTypeExample() {
        let message: [UInt8] = [0x2F, 0x61, 0x00, 0x00, 0x2C, 0x69, 0x78, 0x00, 0x00, 0x00, 0x00, 0x01]
        #expect(decodeResult(message) == .failure(.unknownTypeTag(0x78, offset: 6)))
        let bundle = Array("#bundle\0".utf8) + [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 12] + message
        #expect(decodeResult(bundle) == .failure(.unknownTypeTag(0x78, offset: 26)))
    }

    @Test func hugeBlobExample() {
        let message: [UInt8] = [
            0x2F, 0x61, 0x00, 0x00, 0x2C, 0x62, 0x00, 0x00, 0x00, 0x0F, 0x42, 0x3F, 0x01, 0x02, 0x03, 0x04,
        ]
        #expect(decodeResult(message) == .failure(.blobSizeOutOfBounds(size: 999_999, available: 4, offset: 8)))
    }

    @Test func encodingExample() {
        let message = OSCMessage("/knob/gain", [.float32(0.5)])
        var buffer = [UInt8](repeating: 0, count: 1500)
        let count = buffer.withUnsafeMutableBytes { message.encode(into: $0) }
        #expect(count == 20)
        #expect(hex(Array(buffer[..<count])) == "2f 6b 6e 6f 62 2f 67 61 69 6e 00 00 2c 66 00 00 3f 00 00 00")
    }

    @Test func nestingBeyondTheCeilingIsRefusedWhateverTheOptions() {
        let unlimited = OSCDecodingOptions(maximumBundleDepth: .max, maximumArrayDepth: .max)
        #expect(decodeResult(nestedBundles(depth: 64), options: unlimited).isSuccess)
        #expect(
            decodeResult(nestedBundles(depth: 65), options: unlimited)
                == .failure(.bundleNestingTooDeep(depth: 65, offset: 64 * 20)))
        // 10 000 `[` in one datagram-sized message: refused at the 65th, not recursed into.
        var tags = "," + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        tags += String(repeating: "\0", count: 4 - tags.utf8.count % 4)
        let bytes = Array("/a\0\0".utf8) + Array(tags.utf8)
        #expect(decodeResult(bytes, options: unlimited) == .failure(.arrayNestingTooDeep(depth: 65, offset: 4 + 65)))
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
