/// A line-by-line diff of two values' dumps, used in failure messages.
enum TextDiff {
    /// The multi-line `dump` of a value.
    static func dumpText(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    /// The lines of `expected` and `actual`, with removed lines marked "−" and added lines "+",
    /// and equal lines indented; a longest-common-subsequence alignment.
    ///
    /// - Complexity: O(n·m) in the line counts, which is small for feature states.
    static func lines(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var output: [String] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                output.append("  " + old[i])
                i += 1
                j += 1
            } else if j < new.count, i == old.count || common[i][j + 1] > common[i + 1][j] {
                output.append("+ " + new[j])
                j += 1
            } else {
                output.append("− " + old[i])
                i += 1
            }
        }
        while output.last?.trimmingCharacters() == "" {
            output.removeLast()
        }
        return output.joined(separator: "\n")
    }

    /// The standard failure text for a state mismatch.
    static func stateMismatch(_ headline: String, expected: some Any, actual: some Any) -> String {
        """
        \(headline) (−expected, +actual):
        \(lines(expected: dumpText(expected), actual: dumpText(actual)))
        """
    }
}

extension String {
    fileprivate func trimmingCharacters() -> Substring {
        drop { $0 == " " }
    }
}
