import Foundation
import KnobLink
import Testing

@testable import KnobLinkCLI

/// Issue 10, item 13: each default of `knoblink serve` is declared once (the server's
/// `Configuration()` and the command's own constants) and the help is made from it; the table of
/// flags in Docs/PROTOCOL.md must say the same, so that neither can drift again.
@Suite struct ServeDefaultsTests {
    static let options = ServeCommand.spec.options

    @Test func theHelpShowsTheDefaultsTheServerUses() {
        let defaults = KnobLinkServer.Configuration()
        let shown = Dictionary(
            uniqueKeysWithValues: Self.options.compactMap { option in
                option.defaultText.map { (option.name, $0) }
            })
        #expect(shown["port"] == "\(defaults.port)")
        #expect(shown["max-peers"] == "\(defaults.maxPeers)")
        #expect(shown["rate-limit"] == "\(defaults.rateLimit)")
        #expect(shown["max-links"] == "\(defaults.maxLinks)")
        #expect(shown["feedback-port"] == "9000")
        // The bind of the defaults is every interface of both families, never "every IPv4 interface".
        #expect(defaults.bindHost == nil)
        #expect(shown["bind"]?.contains("IPv6 and IPv4") == true)
        let help = HelpFormatter.help(for: ServeCommand.spec, path: "knoblink serve")
        #expect(!help.contains("IPv4 interface"))
    }

    /// The rows `| \`--flag VALUE\` | default | meaning |` of PROTOCOL.md's table of serve flags.
    static func documentedDefaults() throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Docs/PROTOCOL.md"), encoding: .utf8)
        var rows: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `--") {
            // `\|` is a bar inside a cell (`N\|auto`).
            let cells = line.replacingOccurrences(of: "\\|", with: "/").split(
                separator: "|", omittingEmptySubsequences: false
            ).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { continue }
            let flag = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")).split(separator: " ")[0]
            rows[String(flag.dropFirst(2))] = cells[2].replacingOccurrences(of: "`", with: "")
        }
        return rows
    }

    @Test func theProtocolDocumentSaysTheSameDefaults() throws {
        let documented = try Self.documentedDefaults()
        for option in Self.options where option.name != "help" {
            let row = try #require(documented[option.name], "--\(option.name) has no row in Docs/PROTOCOL.md")
            if let shown = option.defaultText {
                #expect(row == shown, "--\(option.name): the doc says '\(row)', the help '\(shown)'")
            } else {
                #expect(["none", "off"].contains(row), "--\(option.name): the doc says '\(row)', the help nothing")
            }
        }
    }
}
