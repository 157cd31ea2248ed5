/// Writes `JSONValue`s as indented JSON text with members in their given order.
enum JSONWriter {
    static func write(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, into: &output)
        output += "\n"
        return output
    }

    /// Short arrays of scalars stay on one line, which keeps flags and value strings readable.
    private static func isInline(_ elements: [JSONValue]) -> Bool {
        elements.allSatisfy { element in
            switch element {
            case .array, .object: false
            default: true
            }
        } && elements.count <= 16
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): output += quoted(text)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
            } else if isInline(elements) {
                output += "["
                for (position, element) in elements.enumerated() {
                    if position > 0 { output += ", " }
                    write(element, indent: indent + 1, into: &output)
                }
                output += "]"
            } else {
                output += "[\n"
                for (position, element) in elements.enumerated() {
                    output += pad
                    write(element, indent: indent + 1, into: &output)
                    output += position + 1 < elements.count ? ",\n" : "\n"
                }
                output += closing + "]"
            }
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{\n"
            for (position, member) in members.enumerated() {
                output += pad + quoted(member.key) + ": "
                write(member.value, indent: indent + 1, into: &output)
                output += position + 1 < members.count ? ",\n" : "\n"
            }
            output += closing + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// The shortest text that reads back as the same `Float`.
    static func number(_ value: Float) -> JSONValue {
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number("\(value)")
    }
}
