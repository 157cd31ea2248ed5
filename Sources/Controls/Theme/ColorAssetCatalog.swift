import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Named colours with light and dark variants, read from a directory laid out like an Xcode
/// asset catalogue: `NAME.colorset/Contents.json` for each colour.
///
/// A `Contents.json` holds a `colors` array; each entry has a `color` with `components`
/// (`red`, `green`, `blue`, `alpha` as fractions "0.200", bytes "51" or hex bytes "0x33") and
/// optionally `appearances: [{"appearance": "luminosity", "value": "dark"}]`. The entry without
/// appearances is the light (any) variant. Subdirectories that are not colour sets (an Xcode
/// group folder) are searched too.
public struct ColorAssetCatalog: Sendable, Hashable {
    /// A colour's light and dark variants.
    public struct Entry: Sendable, Hashable {
        /// The light (any-appearance) variant.
        public var light: RGBAColor?
        /// The dark variant.
        public var dark: RGBAColor?

        /// Creates an entry.
        public init(light: RGBAColor?, dark: RGBAColor?) {
            self.light = light
            self.dark = dark
        }
    }

    /// The colours by name.
    public private(set) var entries: [String: Entry]

    /// Creates a catalogue from colours in memory.
    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// Reads every `*.colorset/Contents.json` below `directory`.
    ///
    /// - Throws: ``ColorAssetError`` naming the first file that cannot be read or understood.
    public init(directory: URL) throws(ColorAssetError) {
        entries = [:]
        try load(directory)
    }

    /// The colour named `name` for `scheme`; the dark variant falls back to the light one.
    public func color(named name: String, scheme: ColorScheme) -> RGBAColor? {
        guard let entry = entries[name] else { return nil }
        return scheme == .dark ? entry.dark ?? entry.light : entry.light
    }

    private mutating func load(_ directory: URL) throws(ColorAssetError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw .unreadableDirectory(path: directory.path)
        }
        for name in names {
            let url = directory.appendingPathComponent(name)
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory else {
                continue
            }
            if name.hasSuffix(".colorset") {
                let colorName = String(name.dropLast(".colorset".count))
                entries[colorName] = try Self.readColorSet(url.appendingPathComponent("Contents.json"))
            } else {
                try load(url)
            }
        }
    }

    private struct Contents: Decodable {
        struct Item: Decodable {
            struct Appearance: Decodable {
                var appearance: String
                var value: String
            }
            struct Color: Decodable {
                var components: [String: Component]
            }
            var appearances: [Appearance]?
            var color: Color?
        }
        var colors: [Item]
    }

    private enum Component: Decodable {
        case text(String)
        case number(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    private static func readColorSet(_ url: URL) throws(ColorAssetError) -> Entry {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableFile(path: url.path)
        }
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw .malformedContents(path: url.path, reason: String(describing: error))
        }
        var entry = Entry(light: nil, dark: nil)
        for item in contents.colors {
            guard let components = item.color?.components else { continue }
            let color = try makeColor(components, path: url.path)
            let isDark = item.appearances?.contains { $0.appearance == "luminosity" && $0.value == "dark" } ?? false
            let isOther = item.appearances?.contains { !($0.appearance == "luminosity" && $0.value == "dark") } ?? false
            if isDark {
                entry.dark = color
            } else if !isOther {
                entry.light = color
            }
        }
        if entry.light == nil, entry.dark == nil {
            throw .malformedContents(path: url.path, reason: "no colour entries")
        }
        return entry
    }

    private static func makeColor(_ components: [String: Component], path: String) throws(ColorAssetError)
        -> RGBAColor
    {
        func channel(_ key: String, default fallback: Double) throws(ColorAssetError) -> Double {
            guard let component = components[key] else {
                if key == "alpha" { return fallback }
                throw .malformedContents(path: path, reason: "missing component \(key)")
            }
            switch component {
            case .number(let number):
                return number > 1 ? number / 255 : number
            case .text(let text):
                let trimmed = PlainText.trimmed(text, newlines: false)
                if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X"), let byte = UInt8(trimmed.dropFirst(2), radix: 16)
                {
                    return Double(byte) / 255
                }
                if trimmed.contains("."), let fraction = Double(trimmed), (0...1).contains(fraction) {
                    return fraction
                }
                if let byte = UInt8(trimmed) {
                    return Double(byte) / 255
                }
                throw .badComponent(path: path, value: text)
            }
        }
        return RGBAColor(
            red: try channel("red", default: 0), green: try channel("green", default: 0),
            blue: try channel("blue", default: 0), alpha: try channel("alpha", default: 1))
    }
}
