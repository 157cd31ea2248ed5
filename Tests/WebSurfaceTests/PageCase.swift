import Foundation

/// One call into the page's scripts (a case of `browser/harness.html`) and the result Swift
/// expects from it.
struct PageCase {
    /// What the result must be.
    enum Expected {
        /// Exactly this text.
        case text(String)
        /// Numbers within `tolerance` (relative to the larger magnitude, at least absolute);
        /// `nil` stands for JSON null.
        case numbers([Double?], tolerance: Double)
        /// Exactly these texts.
        case texts([String])
        /// A boolean.
        case bool(Bool)
        /// This JSON value, compared after a round trip through JSONSerialization.
        case json(Any)
    }

    var label: String
    var input: [String: Any]
    var expected: Expected

    /// A call of `KnobLink.math[fn](...args)`.
    static func call(_ label: String, _ function: String, _ arguments: [Any], _ expected: Expected) -> PageCase {
        PageCase(label: label, input: ["kind": "call", "fn": function, "args": arguments], expected: expected)
    }

    /// Whether the browser's `result` is what was expected; otherwise a description of both.
    func mismatch(_ result: Any) -> String? {
        switch expected {
        case .text(let text):
            return result as? String == text ? nil : "\(label): expected \(text.debugDescription), got \(result)"
        case .texts(let texts):
            return result as? [String] == texts ? nil : "\(label): expected \(texts), got \(result)"
        case .bool(let value):
            return result as? Bool == value ? nil : "\(label): expected \(value), got \(result)"
        case .numbers(let numbers, let tolerance):
            let values = (result as? [Any]) ?? [result]
            guard values.count == numbers.count else { return "\(label): expected \(numbers), got \(result)" }
            for (value, number) in zip(values, numbers) {
                guard Self.close(value, number, tolerance) else {
                    return "\(label): expected \(numbers), got \(result)"
                }
            }
            return nil
        case .json(let value):
            return Self.canonical(result) == Self.canonical(value) ? nil : "\(label): expected \(value), got \(result)"
        }
    }

    private static func close(_ value: Any, _ number: Double?, _ tolerance: Double) -> Bool {
        guard let number else { return value is NSNull }
        guard let actual = (value as? NSNumber)?.doubleValue else { return false }
        return abs(actual - number) <= tolerance * max(1, abs(actual), abs(number))
    }

    private static func canonical(_ value: Any) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}
