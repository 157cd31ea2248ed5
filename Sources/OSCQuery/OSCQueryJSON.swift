/// A JSON value (RFC 8259) as OSCQuery reads and writes it: objects keep their member order.
///
/// Numbers have three cases so that each is written the way it came: ``int(_:)`` as digits,
/// ``float(_:)`` as the shortest decimal that reads back as the same `Float` (`0.5`, not
/// `0.5000000xxx`), ``double(_:)`` likewise for a `Double`. The parser gives ``int(_:)`` for an
/// integer literal that fits in `Int` and ``double(_:)`` for every other number. Equality is
/// structural: `.float(0.5)` and `.double(0.5)` differ.
public enum OSCQueryJSON: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A 32-bit float, written as its shortest round-trip decimal; NaN and infinities as `null`.
    case float(Float)
    /// A 64-bit float, written as its shortest round-trip decimal; NaN and infinities as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([OSCQueryJSON])
    /// An object, its members in order (a key may not repeat in parsed input).
    case object([(key: String, value: OSCQueryJSON)])

    public static func == (lhs: OSCQueryJSON, rhs: OSCQueryJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.float(let a), .float(let b)): a == b || (a.isNaN && b.isNaN)
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    /// The value of the first member named `key`, if this is an object that has one.
    public subscript(key: String) -> OSCQueryJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value as an exact integer: an ``int(_:)``, or a ``double(_:)`` or ``float(_:)`` with
    /// no fraction that fits in `Int`; otherwise `nil`.
    public var integerValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.rounded() == value, let exact = Int(exactly: value) else { return nil }
            return exact
        case .float(let value):
            guard value.rounded() == value, let exact = Int(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    /// The text, if this is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value as compact JSON text (no spaces), as ``OSCQueryJSONWriter`` writes it.
    public var text: String {
        var writer = OSCQueryJSONWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// What kind of value this is, for error messages (`a string`, `an object`).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .float, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
