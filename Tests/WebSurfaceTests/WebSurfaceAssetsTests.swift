import Controls
import Foundation
import Testing
import WebSurface

@Suite struct WebSurfaceAssetsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/WebSurface/Resources")

    static func text(_ path: String) throws -> String {
        String(decoding: try #require(WebSurfaceAssets.asset(forPath: path)).body, as: UTF8.self)
    }

    @Test func everyFileIsServedWithItsType() throws {
        for path in WebSurfaceAssets.paths {
            let asset = try #require(WebSurfaceAssets.asset(forPath: path), "\(path)")
            #expect(!asset.body.isEmpty, "\(path)")
            let expected =
                path == "/ui" ? "text/html" : path.hasSuffix(".css") ? "text/css" : "text/javascript"
            #expect(asset.contentType == expected + "; charset=utf-8", "\(path)")
        }
        #expect(WebSurfaceAssets.asset(forPath: "/ui/")?.contentType == "text/html; charset=utf-8")
        #expect(WebSurfaceAssets.asset(forPath: "/ui?theme=dark")?.body == WebSurfaceAssets.asset(forPath: "/ui")?.body)
    }

    @Test(arguments: ["/", "/ui/missing.js", "/ui/../Package.swift", "/uix", "/ui/ui.js/", "/UI"])
    func otherPathsAreNotTheSurfaces(_ path: String) {
        #expect(WebSurfaceAssets.asset(forPath: path) == nil)
    }

    @Test func everythingTogetherFitsIn64KiB() throws {
        let total = WebSurfaceAssets.paths.compactMap { WebSurfaceAssets.asset(forPath: $0)?.body.count }.reduce(0, +)
        #expect(total <= 64 * 1024, "the page's files take \(total) bytes")
        #expect(total > 10_000, "the page's files are missing: \(total) bytes")
    }

    @Test func theEmbeddedFilesAreTheSourceFiles() throws {
        for path in WebSurfaceAssets.paths.dropFirst() {
            let file = Self.sources.appendingPathComponent(String(path.dropFirst(4)))
            #expect(try Data(contentsOf: file) == Data(try Self.text(path).utf8), "\(path)")
        }
    }

    @Test func nothingPointsAtAnotherHost() throws {
        for path in WebSurfaceAssets.paths {
            let text = try Self.text(path)
            #expect(!text.contains("http://") && !text.contains("https://"), "\(path) names a host")
            #expect(!text.contains("@import") && !text.contains("url("), "\(path) loads a style resource")
            // A protocol-relative URL in a string or an attribute: "//host/…".
            #expect(text.firstMatch(of: /["'`=(]\s*\/\/[A-Za-z0-9]/) == nil, "\(path) has a protocol-relative URL")
        }
        let html = try Self.text("/ui")
        let references = html.matches(of: /(?:src|href)="([^"]*)"/).map { String($0.output.1) }
        #expect(references.count == 7)
        for reference in references {
            #expect(reference.hasPrefix("/ui/") || reference == "data:,", "\(reference)")
            if reference.hasPrefix("/ui/") {
                #expect(WebSurfaceAssets.asset(forPath: reference) != nil, "\(reference)")
            }
        }
    }

    @Test func theThemeGoesIntoTheThemeScriptAndCannotCloseIt() throws {
        let theme = #"{"light":{"textColor":"102030"},"note":"</script><script>alert(1)</script>"}"#
        let page = String(
            decoding: try #require(WebSurfaceAssets.asset(forPath: "/ui", themeJSON: theme)).body, as: UTF8.self)
        let element = try #require(page.firstMatch(of: /<script id="theme" type="application\/json">(.*?)<\/script>/))
        let json = String(element.output.1)
        #expect(!json.contains("<"))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(decoded["note"] as? String == "</script><script>alert(1)</script>")
        #expect((decoded["light"] as? [String: String])?["textColor"] == "102030")
        let plain = try Self.text("/ui")
        #expect(plain.contains(#"<script id="theme" type="application/json"></script>"#))
    }

    @Test func theStyleSheetHasTheThemesDefaultColours() throws {
        let css = try Self.text("/ui/ui.css")
        let blocks = css.split(separator: "}")
        let light = try #require(blocks.first { $0.contains(":root {") })
        let dark = try #require(blocks.first { $0.contains(":root[data-theme=dark]") })
        func hex(_ color: RGBAColor) -> String {
            let c = color.components8
            return String(format: "#%02X%02X%02X", c.red, c.green, c.blue)
        }
        func declared(_ block: Substring, _ name: String) -> String? {
            block.firstMatch(of: try! Regex("--\(name): (#[0-9A-F]{6});"))?.output[1].substring.map(String.init)
        }
        let names: [(ColorTag, String)] = [
            (.controlBackgroundColor, "control-background"), (.controlForegroundColor, "control-foreground"),
            (.textColor, "text"), (.editorBackgroundColor, "editor-background"),
            (.editorCancelButtonColor, "editor-cancel"), (.editorOKButtonColor, "editor-ok"),
        ]
        for (tag, name) in names {
            let lightColor = hex(Theme(colorScheme: .light).color(tag: tag))
            let darkColor = hex(Theme(colorScheme: .dark).color(tag: tag))
            #expect(declared(light, name) == lightColor, "\(name) light")
            #expect((declared(dark, name) ?? declared(light, name)) == darkColor, "\(name) dark")
        }
    }
}
