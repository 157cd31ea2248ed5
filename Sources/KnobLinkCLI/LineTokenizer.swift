/// Splits one line of `send`'s standard input into words, with the quoting of a POSIX shell that
/// people type without thinking: blanks separate words, `'…'` keeps everything literally,
/// `"…"` keeps blanks and takes `\"` and `\\`, and a backslash outside quotes escapes the next
/// character. `''` is an empty word, so an empty string can be sent.
enum LineTokenizer {
    /// Why a line cannot be split.
    enum Failure: Error, Equatable {
        case unterminatedQuote(Character)
        case trailingBackslash

        var message: String {
            switch self {
            case .unterminatedQuote(let quote): "unterminated \(quote) quote"
            case .trailingBackslash: "backslash at the end of the line"
            }
        }
    }

    /// The words of `line`; a line that is blank or starts with `#` has none.
    static func words(_ line: Substring) throws(Failure) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\r":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "#" where !inWord && words.isEmpty:
                return []
            case "'":
                inWord = true
                while true {
                    guard let next = iterator.next() else { throw .unterminatedQuote("'") }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard var next = iterator.next() else { throw .unterminatedQuote("\"") }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { throw .unterminatedQuote("\"") }
                        if escaped != "\"" && escaped != "\\" { word.append("\\") }
                        next = escaped
                    }
                    word.append(next)
                }
            case "\\":
                guard let escaped = iterator.next() else { throw .trailingBackslash }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
