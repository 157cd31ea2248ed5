import Foundation

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
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .notJSON
        }
        guard let root = object as? [String: Any] else { throw .notAnObject(key: nil) }
        for key in root.keys where !["prefix", "light", "dark"].contains(key) {
            throw .unknownKey(key)
        }
        if let prefix = root["prefix"], !(prefix is String) { throw .notAString(key: "prefix") }
        let prefix = root["prefix"] as? String ?? ""
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

    private static func colors(_ value: Any?, scheme: String) throws(ThemeFileError) -> [ColorTag: RGBAColor] {
        guard let value else { return [:] }
        guard let object = value as? [String: Any] else { throw .notAnObject(key: scheme) }
        var colors: [ColorTag: RGBAColor] = [:]
        for (key, text) in object {
            guard let tag = ColorTag(rawValue: key) else { throw .unknownKey("\(scheme).\(key)") }
            guard let text = text as? String, text.count == 6, text.allSatisfy(\.isHexDigit),
                let color = RGBAColor(hex: text)
            else {
                throw .invalidColor(key: "\(scheme).\(key)", value: "\(text)")
            }
            colors[tag] = color
        }
        return colors
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
