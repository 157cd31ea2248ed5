/// Hands out the positional arguments of a command in order, with the errors
/// swift-argument-parser gives for too few or too many.
struct PositionalReader: Sendable {
    private var remaining: ArraySlice<String>

    init(_ positionals: [String]) {
        remaining = positionals[...]
    }

    /// Takes the next argument, which must be there.
    /// - Throws: ``UsageError/missingArgument(_:)`` naming `label`.
    mutating func next(_ label: String) throws(UsageError) -> String {
        guard let value = remaining.popFirst() else { throw .missingArgument(label) }
        return value
    }

    /// Takes the next argument if there is one.
    mutating func optional() -> String? {
        remaining.popFirst()
    }

    /// Takes every remaining argument.
    mutating func rest() -> [String] {
        defer { remaining = [] }
        return Array(remaining)
    }

    /// Checks that nothing is left.
    /// - Throws: ``UsageError/unexpectedArgument(_:)`` naming the first argument left over.
    func finish() throws(UsageError) {
        if let extra = remaining.first { throw .unexpectedArgument(extra) }
    }
}
