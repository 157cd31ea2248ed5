import Testing

@testable import KnobLinkCLI

@Suite struct LineTokenizerTests {
    @Test(arguments: [
        (#"/a i 1"#, ["/a", "i", "1"]),
        ("  /a\t s  x  ", ["/a", "s", "x"]),
        (#"/a s 'two words'"#, ["/a", "s", "two words"]),
        (#"/a s "say \"hi\" \\ \n""#, ["/a", "s", #"say "hi" \ \n"#]),
        (#"/a s two\ words"#, ["/a", "s", "two words"]),
        (#"/a ss '' """#, ["/a", "ss", "", ""]),
        (#"/a s it"'"s"#, ["/a", "s", "it's"]),
        ("/a s #not-a-comment", ["/a", "s", "#not-a-comment"]),
        ("# a comment", []),
        ("   ", []),
    ])
    func splits(line: String, expected: [String]) throws {
        #expect(try LineTokenizer.words(line[...]) == expected)
    }

    @Test func refusesUnterminatedQuotes() {
        #expect(throws: LineTokenizer.Failure.unterminatedQuote("'")) { try LineTokenizer.words("/a s 'x") }
        #expect(throws: LineTokenizer.Failure.unterminatedQuote("\"")) { try LineTokenizer.words(#"/a s "x\"#) }
        #expect(throws: LineTokenizer.Failure.trailingBackslash) { try LineTokenizer.words(#"/a s x\"#) }
    }
}
