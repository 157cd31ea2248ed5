import Foundation

/// A fenced block of a Markdown file that the doc test runs, found by the HTML comment on the
/// line before its fence, which a rendered page does not show:
///
/// - `<!-- doctest -->` before a shell session: each `$ ` line is a command, run in bash; the
///   lines up to the next `$ ` are what it prints (standard output, then standard error).
///   A block without `$ ` lines is a script: each line must succeed, its output is not shown.
/// - `<!-- doctest: background -->`: each line starts a program that keeps running, as in
///   another terminal (a listener such as `knoblink dump 9000`), until the file's end.
/// - `<!-- doctest: output -->` before a plain block: what the background programs printed
///   since the last such block.
/// - `<!-- doctest: without time tags -->`: a session whose listener lines are shown without the
///   time tag in front, as `Docs/PROTOCOL.md` shows them.
/// - `<!-- doctest: skip REASON -->`: a shell block that cannot run against a default server
///   (another server, a file of the reader's own); the reason is said, so that a reviewer sees
///   why.
///
/// In shown output, a line `…` stands for any number of lines.
struct DocExample: Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case session, background, output, skip
    }

    /// One command and what it prints; `nil` for a script, whose output is not shown but which
    /// must succeed.
    struct Step: Sendable {
        var command: String
        var expected: [String]?
    }

    var file: String
    /// The line of the opening fence, 1-based.
    var line: Int
    var kind: Kind
    /// Whether listener lines are shown with their time tags.
    var showsTimeTags = true
    /// For ``Kind/session`` and ``Kind/background``: the commands; for ``Kind/output``, one
    /// step with an empty command and the block's lines.
    var steps: [Step]

    var description: String { "\(file):\(line)" }

    /// The directive of an HTML comment line, or `nil` if the line is not a doctest comment.
    private static func kind(ofComment line: String) -> (kind: Kind, showsTimeTags: Bool)? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("<!-- doctest"), text.hasSuffix("-->") else { return nil }
        let directive = text.dropFirst("<!-- doctest".count).dropLast(3).trimmingCharacters(in: .whitespaces)
        switch directive {
        case "": return (.session, true)
        case ": without time tags": return (.session, false)
        case ": background": return (.background, true)
        case ": output": return (.output, true)
        case _ where directive.hasPrefix(": skip "): return (.skip, true)
        default: return nil
        }
    }

    /// Every marked block of a Markdown text, and the line of every shell block left unmarked:
    /// a block in `sh` (or `bash`, `shell`, `console`), or any block with `$ ` lines.
    static func examples(inMarkdown text: String, file: String) -> (examples: [DocExample], unmarked: [Int]) {
        let lines = text.components(separatedBy: "\n")
        var examples: [DocExample] = []
        var unmarked: [Int] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let indent = lines[index].prefix { $0 == " " }.count
            var end = index + 1
            while end < lines.count && lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
            let body = lines[(index + 1)..<min(end, lines.count)].map { String($0.dropFirst(min(indent, $0.count))) }
            let comment = index > 0 ? kind(ofComment: lines[index - 1]) : nil
            if let (kind, showsTimeTags) = comment {
                examples.append(
                    DocExample(
                        file: file, line: index + 1, kind: kind, showsTimeTags: showsTimeTags, steps: steps(body, kind))
                )
            } else if ["sh", "bash", "shell", "console"].contains(language)
                || body.contains(where: { $0.hasPrefix("$ ") })
            {
                unmarked.append(index + 1)
            }
            index = end + 1
        }
        return (examples, unmarked)
    }

    private static func steps(_ body: [String], _ kind: Kind) -> [Step] {
        switch kind {
        case .skip: return []
        case .output: return [Step(command: "", expected: body)]
        case .background:
            return body.filter { !$0.isEmpty && !$0.hasPrefix("#") }.map { Step(command: $0, expected: []) }
        case .session:
            guard body.contains(where: { $0.hasPrefix("$ ") }) else {
                return [Step(command: body.joined(separator: "\n"), expected: nil)]
            }
            var steps: [Step] = []
            for line in body {
                if line.hasPrefix("$ ") {
                    steps.append(Step(command: String(line.dropFirst(2)), expected: []))
                } else if !steps.isEmpty {
                    steps[steps.count - 1].expected?.append(line)
                }
            }
            return steps
        }
    }

    /// Whether `actual` is `expected`, where a line `…` of `expected` stands for any lines.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "…" {
            let rest = Array(expected.dropFirst())
            return (0...actual.count).contains { matches(Array(actual.dropFirst($0)), rest) }
        }
        guard let head = actual.first, head == first else { return false }
        return matches(Array(actual.dropFirst()), Array(expected.dropFirst()))
    }
}
