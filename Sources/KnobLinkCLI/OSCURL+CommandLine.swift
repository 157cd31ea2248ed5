import OSCTransport

extension OSCURL {
    /// Parses a URL given on the command line.
    /// - Throws: ``UsageError/invalidValue(_:for:reason:)`` naming `label` and what is wrong.
    static func parse(_ text: String, argument label: String) throws(UsageError) -> OSCURL {
        do {
            return try parse(text)
        } catch {
            switch error {
            case .invalidURL(_, let reason), .unresolvedHost(_, let reason):
                throw .invalidValue(text, for: label, reason: reason)
            }
        }
    }
}
