#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A theme file: the six colours of ``ColorTag`` as `RRGGBB`, for light and dark, with an
/// optional asset-name prefix (SURFACES.md §1; `knoblink serve --theme-file FILE`).
///
/// ```json
/// {
///   "prefix": "duality",
///   "light": { "controlForegroundColor": "FF9500", "textColor": "D97F00" },
///   "dark":  { "controlForegroundColor": "FF9F0A" }
/// }
/// ```
///
/// A colour left out keeps the theme's default; a dark colour left out falls back to the light
/// one. The file is read by the terminal surface and the web page alike.
public struct ThemeFile: Sendable, Equatable {
    /// The asset-name prefix, or `""`.
    public var prefix: String
    /// The colours, named `prefix_tag` (or `tag` without a prefix), as ``Theme`` looks them up.
    public var catalog: ColorAssetCatalog

    /// Parses a theme file's bytes.
    ///
    /// - Throws: ``ThemeFileError`` naming what is wrong.
    public init(data: Data) throws(ThemeFileError) {
        let node: Node
        do {
            node = try JSONDecoder().decode(Node.self, from: data)
        } catch {
            throw .notJSON
        }
        guard case .object(let root) = node else { throw .notAnObject(key: nil) }
        for key in root.keys.sorted() where !["prefix", "light", "dark"].contains(key) {
            throw .unknownKey(key)
        }
        var prefix = ""
        if let node = root["prefix"] {
            guard case .string(let text) = node else { throw .notAString(key: "prefix") }
            prefix = text
        }
        let light = try Self.colors(root["light"], scheme: "light")
        let dark = try Self.colors(root["dark"], scheme: "dark")
        var entries: [String: ColorAssetCatalog.Entry] = [:]
        for tag in ColorTag.allCases where light[tag] != nil || dark[tag] != nil {
            entries[Theme.assetName(for: tag, prefix: prefix)] = ColorAssetCatalog.Entry(
                light: light[tag], dark: dark[tag] ?? light[tag])
        }
        self.prefix = prefix
        self.catalog = ColorAssetCatalog(entries: entries)
    }

    /// Reads and parses the theme file at `path`.
    ///
    /// - Throws: ``ThemeFileError/unreadable(path:)`` or a parsing error.
    public init(contentsOfFile path: String) throws(ThemeFileError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        try self.init(data: data)
    }

    /// The theme for `colorScheme` with this file's colours.
    public func theme(_ colorScheme: ColorScheme) -> Theme {
        Theme(assets: catalog, prefix: prefix, colorScheme: colorScheme)
    }

    private static func colors(_ value: Node?, scheme: String) throws(ThemeFileError) -> [ColorTag: RGBAColor] {
        guard let value else { return [:] }
        guard case .object(let object) = value else { throw .notAnObject(key: scheme) }
        var colors: [ColorTag: RGBAColor] = [:]
        for (key, node) in object.sorted(by: { $0.key < $1.key }) {
            guard let tag = ColorTag(rawValue: key) else { throw .unknownKey("\(scheme).\(key)") }
            guard case .string(let text) = node, text.count == 6, text.allSatisfy(\.isHexDigit),
                let color = RGBAColor(hex: text)
            else {
                throw .invalidColor(key: "\(scheme).\(key)", value: node.text)
            }
            colors[tag] = color
        }
        return colors
    }

    /// A theme file's JSON: objects and strings matter; any other value is kept as its text for
    /// the error that names it.
    private enum Node: Decodable {
        case string(String)
        case object([String: Node])
        case other(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let object = try? container.decode([String: Node].self) {
                self = .object(object)
            } else if let number = try? container.decode(Double.self) {
                self = .other(number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number))
            } else if let flag = try? container.decode(Bool.self) {
                self = .other(String(flag))
            } else if container.decodeNil() {
                self = .other("null")
            } else {
                self = .other("an array")
            }
        }

        var text: String {
            switch self {
            case .string(let text), .other(let text): text
            case .object: "an object"
            }
        }
    }
}

/// What is wrong with a theme file.
public enum ThemeFileError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String)
    /// The bytes are not JSON.
    case notJSON
    /// The top level (`nil`) or the named key is not an object.
    case notAnObject(key: String?)
    /// The named key is not a string.
    case notAString(key: String)
    /// A key that a theme file does not have.
    case unknownKey(String)
    /// A colour that is not six hex digits `RRGGBB`.
    case invalidColor(key: String, value: String)

    /// A sentence for a user.
    public var description: String {
        switch self {
        case .unreadable(let path): "cannot read the theme file '\(path)'"
        case .notJSON: "the theme file is not JSON"
        case .notAnObject(nil): "the theme file must be a JSON object"
        case .notAnObject(let key?): "'\(key)' must be an object of colours"
        case .notAString(let key): "'\(key)' must be a string"
        case .unknownKey(let key):
            "unknown key '\(key)' (expected prefix, light, dark and the colours \(ColorTag.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .invalidColor(let key, let value): "'\(key)' is '\(value)', expected a colour as RRGGBB"
        }
    }
}
