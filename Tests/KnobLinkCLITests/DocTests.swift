import Foundation
import Testing

/// The shell examples of `README.md`, `Docs/` and `Examples/`, run against a default server
/// (``DocSession``), so that the docs cannot drift from what the tools print.
@Suite(.offThePool) struct DocTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Markdown files with shell examples, relative to the package root.
    static let files: [String] = {
        var files = ["README.md"]
        for folder in ["Docs", "Examples"] {
            let base = packageRoot.appendingPathComponent(folder)
            let found = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            files += found.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return files
    }()

    private static func examples(_ file: String) throws -> (examples: [DocExample], unmarked: [Int]) {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        return DocExample.examples(inMarkdown: text, file: file)
    }

    @Test(arguments: files) func examplesPrintWhatTheDocShows(file: String) throws {
        let examples = try Self.examples(file).examples
        guard examples.contains(where: { $0.kind != .skip }) else { return }
        let session = try DocSession()
        for example in examples {
            for difference in try session.run(example) { Issue.record(Comment(rawValue: difference)) }
        }
    }

    @Test(arguments: files) func everyShellBlockIsRunOrSaysWhyNot(file: String) throws {
        let unmarked = try Self.examples(file).unmarked
        #expect(unmarked.isEmpty, "shell blocks without <!-- doctest --> at lines \(unmarked) of \(file)")
    }

    @Test func shownOutputMatchesWithEllipses() {
        #expect(DocExample.matches(["a", "b", "c"], ["a", "…", "c"]))
        #expect(DocExample.matches(["a", "c"], ["a", "…", "c"]))
        #expect(!DocExample.matches(["a", "b"], ["a", "…", "c"]))
        #expect(!DocExample.matches(["a", "b", "c"], ["a", "c"]))
    }

    @Test func markedBlocksAreFoundAndUnmarkedShellBlocksReported() {
        let text = """
            <!-- doctest -->
            ```sh
            $ knoblink get localhost 8000 /knob/gain
            /knob/gain f 0.833333
            ```

            ```sh
            oscsend localhost 8000 /knob/gain f 1
            ```
            """
        let (examples, unmarked) = DocExample.examples(inMarkdown: text, file: "x.md")
        #expect(examples.count == 1)
        #expect(examples.first?.steps.first?.command == "knoblink get localhost 8000 /knob/gain")
        #expect(examples.first?.steps.first?.expected == ["/knob/gain f 0.833333"])
        #expect(unmarked == [7])
    }
}
