import Foundation
import OSCCore

/// The text `oscdump` (liblo 0.31) prints for a message, byte for byte, so that scripts can read
/// `knoblink dump` in its place.
///
/// One line a message: the time tag as `%08x.%08x` (the current time when it is "immediately"),
/// the address, the type tags without the comma, and each argument after a space, printed as
/// liblo's `lo_arg_pp` prints it. A message without arguments therefore ends with a space.
/// Messages of a bundle are not set apart: each carries its innermost bundle's time tag.
enum DumpFormat {
    /// Appends the line of one message, with its newline.
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
        appendTimeTag(timeTag.isImmediately ? now : timeTag, to: &output)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: message.address.utf8)
        output.append(UInt8(ascii: " "))
        appendTypeTags(of: message.arguments, to: &output)
        for argument in message.arguments {
            output.append(UInt8(ascii: " "))
            append(argument, to: &output)
        }
        output.append(UInt8(ascii: "\n"))
    }

    static func line(of message: OSCMessage, timeTag: OSCTimeTag, now: OSCTimeTag) -> String {
        var output: [UInt8] = []
        appendLine(of: message, timeTag: timeTag, now: now, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendTypeTags(of arguments: [OSCArgument], to output: inout [UInt8]) {
        for argument in arguments {
            output.append(argument.typeTag)
            if case .array(let elements) = argument {
                appendTypeTags(of: elements, to: &output)
                output.append(UInt8(ascii: "]"))
            }
        }
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
        return String(format: "%f", value)
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
