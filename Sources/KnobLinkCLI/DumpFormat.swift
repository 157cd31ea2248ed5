import OSCCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The text `oscdump` (liblo 0.31) prints for a message, byte for byte, so that scripts can read
/// `knoblink dump` in its place.
///
/// One line a message: the time tag as `%08x.%08x` (the current time when it is "immediately"),
/// the address, the type tags without the comma, and each argument after a space, printed as
/// liblo's `lo_arg_pp` prints it. A message without arguments therefore ends with a space.
/// Messages of a bundle are not set apart: each carries its innermost bundle's time tag.
enum DumpFormat {
    /// Appends the line of one message, with its newline: the line of its encoding read in place
    /// (see ``appendLine(of:timeTag:now:to:)-(OSCMessageView,_,_,_)``), so that both print alike.
    /// - Parameters:
    ///   - message: the message.
    ///   - timeTag: the time tag of its innermost bundle, or `.immediately` for a bare message.
    ///   - now: the time tag printed for "immediately".
    static func appendLine(
        of message: OSCMessage,
        timeTag: OSCTimeTag,
        now: OSCTimeTag,
        to output: inout [UInt8]
    ) {
        message.encoded().withUnsafeBytes { bytes in
            // What the encoder writes always decodes; the address need not start with '/'.
            guard let view = try? OSCMessageView(bytes, options: OSCDecodingOptions(requiresSlashAddress: false))
            else { return }
            appendLine(of: view, timeTag: timeTag, now: now, to: &output)
        }
    }

    /// Appends the line of a message read in place from the packet. The address, strings and
    /// symbols are copied as the bytes received, as liblo prints them: a string that is not
    /// valid UTF-8 comes out byte for byte, where an owned ``OSCMessage`` holds U+FFFD instead.
    static func appendLine(
        of message: OSCMessageView,
        timeTag: OSCTimeTag,
        now: OSCTimeTag,
        to output: inout [UInt8]
    ) {
        appendTimeTag(timeTag.isImmediately ? now : timeTag, to: &output)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: message.addressBytes)
        output.append(UInt8(ascii: " "))
        // The type tags after the comma, array brackets included.
        output.append(contentsOf: message.typeTags)
        for argument in message.arguments {
            output.append(UInt8(ascii: " "))
            append(argument, to: &output)
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// One argument read in place: strings and symbols as their bytes, arrays element by
    /// element, everything else as ``append(_:to:)-(OSCArgument,_)`` prints it.
    static func append(_ argument: OSCArgumentView, to output: inout [UInt8]) {
        switch argument.typeTag {
        case OSCTypeTag.string:
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: argument.bytes)
            output.append(UInt8(ascii: "\""))
        case OSCTypeTag.symbol:
            output.append(UInt8(ascii: "'"))
            output.append(contentsOf: argument.bytes)
        case OSCTypeTag.arrayStart:
            output.append(UInt8(ascii: "["))
            for (index, element) in argument.elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: " ")) }
                append(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        default:
            append(argument.makeArgument(), to: &output)
        }
    }

    /// Appends the message's encoding for `-r`, as liblo serialises it again: the bytes received,
    /// strings included whatever they hold, with every padding byte zero and the type tags
    /// written even when the sender left them out.
    static func appendEncoding(of message: OSCMessageView, to output: inout [UInt8]) {
        appendPadded(message.addressBytes, to: &output)
        var tags: [UInt8] = [UInt8(ascii: ",")]
        tags.append(contentsOf: message.typeTags)
        appendPadded(tags, to: &output)
        for argument in message.arguments { appendEncoding(of: argument, to: &output) }
    }

    private static func appendEncoding(of argument: OSCArgumentView, to output: inout [UInt8]) {
        switch argument.typeTag {
        case OSCTypeTag.string, OSCTypeTag.symbol:
            appendPadded(argument.bytes, to: &output)
        case OSCTypeTag.blob:
            let count = argument.bytes.count
            output.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) })
            output.append(contentsOf: argument.bytes)
            output.append(contentsOf: repeatElement(0, count: (4 - count % 4) % 4))
        case OSCTypeTag.arrayStart:
            for element in argument.elements { appendEncoding(of: element, to: &output) }
        default:
            // Numbers, time tags, colours, MIDI: their 4 or 8 bytes; T F N I: none.
            output.append(contentsOf: argument.bytes)
        }
    }

    /// `bytes`, a NUL, and NULs to a multiple of 4: an OSC string.
    private static func appendPadded(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        output.append(contentsOf: bytes)
        output.append(contentsOf: repeatElement(0, count: 4 - bytes.count % 4))
    }

    static func line(of message: OSCMessage, timeTag: OSCTimeTag, now: OSCTimeTag) -> String {
        var output: [UInt8] = []
        appendLine(of: message, timeTag: timeTag, now: now, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// One argument as `lo_arg_pp` prints it. The symbol lacks its closing quote and a blob of
    /// more than 12 bytes shows only its size, as in liblo. Colours and arrays, which liblo
    /// refuses, get forms of their own.
    static func append(_ argument: OSCArgument, to output: inout [UInt8]) {
        switch argument {
        case .int32(let value): output.append(contentsOf: String(value).utf8)
        case .int64(let value): output.append(contentsOf: String(value).utf8)
        case .float32(let value): output.append(contentsOf: fixed(Double(value)).utf8)
        case .double(let value): output.append(contentsOf: fixed(value).utf8)
        case .string(let value): output.append(contentsOf: "\"\(value)\"".utf8)
        case .symbol(let value): output.append(contentsOf: "'\(value)".utf8)
        case .character(let value): output.append(contentsOf: [UInt8(ascii: "'"), value, UInt8(ascii: "'")])
        case .blob(let bytes): appendBlob(bytes, to: &output)
        case .timeTag(let value): appendTimeTag(value, to: &output)
        case .midi(let value): appendBytes("MIDI", value.rawValue, to: &output)
        case .rgba(let value): appendBytes("RGBA", value.rawValue, to: &output)
        case .true: output.append(contentsOf: "#T".utf8)
        case .false: output.append(contentsOf: "#F".utf8)
        case .nil: output.append(contentsOf: "Nil".utf8)
        case .impulse: output.append(contentsOf: "Infinitum".utf8)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: " ")) }
                append(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
    }

    /// `%f`: six decimals, and glibc's `inf`, `nan`, `-nan`.
    static func fixed(_ value: Double) -> String {
        if value.isNaN { return value.sign == .minus ? "-nan" : "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return DecimalText.fixed(value, decimals: 6)
    }

    static func appendTimeTag(_ timeTag: OSCTimeTag, to output: inout [UInt8]) {
        output.append(contentsOf: hex(timeTag.seconds, width: 8).utf8)
        output.append(UInt8(ascii: "."))
        output.append(contentsOf: hex(timeTag.fraction, width: 8).utf8)
    }

    /// `[3b 00 0x10 0x1]`: liblo prints each byte with `%#02x`, which writes zero as `00` and
    /// every other byte with `0x` and no leading zero.
    private static func appendBlob(_ bytes: [UInt8], to output: inout [UInt8]) {
        guard bytes.count <= 12 else {
            output.append(contentsOf: "[\(bytes.count) byte blob]".utf8)
            return
        }
        let shown = bytes.map { $0 == 0 ? "00" : "0x" + hex($0, width: 1) }
        output.append(contentsOf: "[\(bytes.count)b \(shown.joined(separator: " "))]".utf8)
    }

    /// `MIDI [0x0a 0x0b 0x0c 0x0d]`.
    private static func appendBytes(_ name: String, _ word: UInt32, to output: inout [UInt8]) {
        let bytes = [word >> 24, word >> 16, word >> 8, word].map {
            "0x" + hex(UInt8(truncatingIfNeeded: $0), width: 2)
        }
        output.append(contentsOf: "\(name) [\(bytes.joined(separator: " "))]".utf8)
    }

    private static func hex(_ value: some BinaryInteger, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The raw bytes of a packet for `--hex`: 16 a line, offset first, printable ASCII last.
    static func hexDump(_ bytes: some Collection<UInt8>) -> String {
        var lines: [String] = []
        var offset = 0
        var iterator = bytes.makeIterator()
        while true {
            var row: [UInt8] = []
            while row.count < 16, let byte = iterator.next() { row.append(byte) }
            if row.isEmpty { break }
            let hexColumn = row.map { hex($0, width: 2) }.joined(separator: " ")
            let padded = hexColumn + String(repeating: " ", count: 47 - hexColumn.count)
            let text = String(decoding: row.map { (0x20..<0x7f).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            lines.append("    \(hex(offset, width: 4))  \(padded)  \(text)\n")
            offset += row.count
        }
        return lines.joined()
    }
}
