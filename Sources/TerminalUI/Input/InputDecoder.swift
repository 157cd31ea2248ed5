/// Turns the bytes a terminal sends into keys and mouse events.
///
/// It understands UTF-8 text, control characters, CSI and SS3 sequences for the arrows, Home,
/// End, Page Up/Down, Delete and Shift-Tab (xterm's forms, with modifiers as in `ESC[1;2A`), and
/// SGR mouse reports (`ESC[<b;x;yM` / `m`, modes 1000, 1002 and 1006). A sequence cut at the end
/// of a read is kept for the next one, except a lone ESC, which is the Escape key (a terminal
/// writes a whole sequence at once). Unknown sequences are dropped.
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder.
    public init() {}

    /// The events in `bytes` (with any sequence left over from the previous call).
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            guard let (event, length) = Self.parse(pending, at: index) else { break }
            if let event { events.append(event) }
            index += length
        }
        pending.removeFirst(index)
        return events
    }

    /// The event at `index` and the bytes it takes, or `nil` when more bytes are needed.
    private static func parse(_ bytes: [UInt8], at index: Int) -> (InputEvent?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            guard index + 1 < bytes.count else { return (.key(.escape), 1) }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "[") { return parseCSI(bytes, at: index) }
            if next == UInt8(ascii: "O") {
                guard index + 2 < bytes.count else { return nil }
                return (ss3(bytes[index + 2]).map { .key($0) }, 3)
            }
            if next == 0x1B { return (.key(.escape), 1) }
            // Alt and a key: the key alone.
            return parse(bytes, at: index + 1).map { ($0.0, $0.1 + 1) }
        case 0x09: return (.key(.tab), 1)
        case 0x0D, 0x0A: return (.key(.enter), 1)
        case 0x7F, 0x08: return (.key(.backspace), 1)
        case 0x01...0x1A: return (.key(.control(Character(Unicode.Scalar(byte + 0x60)))), 1)
        case 0x00...0x1F: return (nil, 1)
        default: return parseUTF8(bytes, at: index)
        }
    }

    private static func parseUTF8(_ bytes: [UInt8], at index: Int) -> (InputEvent?, Int)? {
        let byte = bytes[index]
        let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
        guard length > 0 else { return (nil, 1) }
        guard index + length <= bytes.count else { return nil }
        let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
        guard let character = text.first, text.unicodeScalars.first != "\u{FFFD}" else { return (nil, length) }
        return (.key(.character(character)), length)
    }

    private static func ss3(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up(shift: false)
        case UInt8(ascii: "B"): .down(shift: false)
        case UInt8(ascii: "C"): .right(shift: false)
        case UInt8(ascii: "D"): .left(shift: false)
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        default: nil
        }
    }

    private static func parseCSI(_ bytes: [UInt8], at index: Int) -> (InputEvent?, Int)? {
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let length = end - index + 1
        let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let final = Character(Unicode.Scalar(bytes[end]))
        if body.hasPrefix("<") {
            return (mouse(body.dropFirst(), final: final).map { .mouse($0) }, length)
        }
        let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let modifier = numbers.count > 1 ? (numbers[1] ?? 1) : 1
        let shift = (modifier - 1) & 1 == 1
        let key: Key? =
            switch final {
            case "A": .up(shift: shift)
            case "B": .down(shift: shift)
            case "C": .right(shift: shift)
            case "D": .left(shift: shift)
            case "H": .home
            case "F": .end
            case "Z": .backTab
            case "~":
                switch numbers.first ?? nil {
                case 1, 7: .home
                case 4, 8: .end
                case 3: .delete
                case 5: .pageUp
                case 6: .pageDown
                default: nil
                }
            default: nil
            }
        return (key.map { .key($0) }, length)
    }

    private static func mouse(_ body: Substring, final: Character) -> MouseEvent? {
        let numbers = body.split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3, final == "M" || final == "m" else { return nil }
        let code = numbers[0]
        let (x, y) = (numbers[1] - 1, numbers[2] - 1)
        let shift = code & 4 != 0
        let button = code & 3
        if code & 64 != 0 {
            return MouseEvent(kind: button == 0 ? .wheelUp : .wheelDown, x: x, y: y, shift: shift)
        }
        if final == "m" { return MouseEvent(kind: .release, button: button, x: x, y: y, shift: shift) }
        if code & 32 != 0 { return MouseEvent(kind: .drag, button: button, x: x, y: y, shift: shift) }
        return MouseEvent(kind: .press, button: button, x: x, y: y, shift: shift)
    }
}
