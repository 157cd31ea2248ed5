import OSCCore

extension OSCMessage {
    /// The first argument as a number, as the server sends values (`f`, or `i`/`d`/`h`).
    var number: Double? {
        switch arguments.first {
        case .float32(let value): Double(value)
        case .double(let value): value
        case .int32(let value): Double(value)
        case .int64(let value): Double(value)
        default: nil
        }
    }

    /// The string arguments, in order.
    var strings: [String] {
        arguments.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
