/// The index of the first element that differs, or of the end of the shorter, or `nil`; a
/// failure then names a place instead of printing whole files.
func firstDifference<Element: Equatable>(_ produced: [Element], _ expected: [Element]) -> Int? {
    if let offset = zip(produced, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
        return offset
    }
    return produced.count == expected.count ? nil : min(produced.count, expected.count)
}
