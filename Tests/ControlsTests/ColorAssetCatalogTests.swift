import Controls
import Foundation
import Testing

@Suite struct ColorAssetCatalogTests {
    private func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ColorAssets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func writeColorSet(_ name: String, in directory: URL, json: String) throws {
        let set = directory.appendingPathComponent(name + ".colorset")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: set.appendingPathComponent("Contents.json"))
    }

    private let lightAndDark = """
        {
          "colors" : [
            { "idiom" : "universal",
              "color" : { "color-space" : "srgb",
                          "components" : { "red" : "0.200", "green" : "0x80", "blue" : "255", "alpha" : "1.000" } } },
            { "idiom" : "universal",
              "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
              "color" : { "color-space" : "srgb",
                          "components" : { "red" : 1, "green" : 0.5, "blue" : 0 } } }
          ],
          "info" : { "author" : "xcode", "version" : 1 }
        }
        """

    @Test func readsLightAndDarkVariantsByPrefixedName() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeColorSet("VFO_controlBackgroundColor", in: directory, json: lightAndDark)
        let group = directory.appendingPathComponent("Group")
        try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
        try writeColorSet(
            "textColor", in: group,
            json: #"{"colors":[{"idiom":"universal","color":{"components":{"red":"0","green":"0","blue":"0"}}}]}"#)

        let catalog = try ColorAssetCatalog(directory: directory)
        #expect(catalog.entries.keys.sorted() == ["VFO_controlBackgroundColor", "textColor"])
        let light = catalog.color(named: "VFO_controlBackgroundColor", scheme: .light)
        #expect(light == RGBAColor(red: 0.2, green: 128.0 / 255, blue: 1, alpha: 1))
        #expect(
            catalog.color(named: "VFO_controlBackgroundColor", scheme: .dark) == RGBAColor(red: 1, green: 0.5, blue: 0))
        #expect(catalog.color(named: "textColor", scheme: .dark) == .black)

        let theme = Theme(assets: catalog, prefix: "VFO", colorScheme: .dark)
        #expect(theme.controlBackgroundColor == RGBAColor(red: 1, green: 0.5, blue: 0))
        #expect(theme.textColor == Theme(colorScheme: .dark).textColor)
    }

    @Test func reportsMalformedFiles() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeColorSet("broken", in: directory, json: "{ not json")
        #expect(throws: ColorAssetError.self) { try ColorAssetCatalog(directory: directory) }
    }

    @Test func reportsBadComponents() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeColorSet(
            "odd", in: directory,
            json: #"{"colors":[{"color":{"components":{"red":"lots","green":"0","blue":"0"}}}]}"#)
        #expect {
            try ColorAssetCatalog(directory: directory)
        } throws: { error in
            guard case .badComponent(_, let value) = error as? ColorAssetError else { return false }
            return value == "lots"
        }
    }

    @Test func missingDirectory() {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
        #expect(throws: ColorAssetError.unreadableDirectory(path: url.path)) { try ColorAssetCatalog(directory: url) }
    }
}
