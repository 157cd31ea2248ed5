/// The web control surface's files (SURFACES.md §4), embedded in the binary, by URL path.
///
/// The page is `GET /ui` (also `/ui/`); its style sheet and scripts are `/ui/ui.css`,
/// `/ui/osc.js`, `/ui/math.js`, `/ui/input.js`, `/ui/wave.js` and `/ui/ui.js`. A query string
/// (`/ui?theme=dark`) is ignored here: the page reads it itself. Every file is its own, so the
/// page works offline and makes no request to any other host.
///
/// The colours of `--theme-file` reach the page inside the HTML: the server passes the file's
/// JSON as `themeJSON` and it is put in `<script id="theme" type="application/json">`, which the
/// page reads before it draws. The JSON is `{"light": {TAG: "RRGGBB", …}, "dark": {…}}` with the
/// six tags of CONTROLS.md §3 (`controlBackgroundColor`, `controlForegroundColor`, `textColor`,
/// `editorBackgroundColor`, `editorCancelButtonColor`, `editorOKButtonColor`); other keys (such
/// as `prefix`) are ignored, and a missing colour keeps its default.
public enum WebSurfaceAssets {
    /// The paths served, the page first.
    public static let paths = [
        "/ui", "/ui/ui.css", "/ui/osc.js", "/ui/math.js", "/ui/input.js", "/ui/wave.js", "/ui/ui.js",
    ]

    static let html = "text/html; charset=utf-8"
    static let css = "text/css; charset=utf-8"
    static let javaScript = "text/javascript; charset=utf-8"
    /// Where the HTML takes the theme's JSON.
    static let themePlaceholder = "/*THEME*/"

    /// The file at `path`, or `nil` when the surface has none there.
    ///
    /// - Parameters:
    ///   - path: the request's path, with or without a query string.
    ///   - themeJSON: the `--theme-file` contents for the page, or `nil` for the built-in colours.
    /// - Returns: the content type and body; the page's body includes the theme.
    public static func asset(forPath path: String, themeJSON: String? = nil) -> WebSurfaceAsset? {
        let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        switch path {
        case "/ui", "/ui/": return WebSurfaceAsset(contentType: html, body: page(themeJSON: themeJSON))
        case "/ui/ui.css": return WebSurfaceAsset(contentType: css, body: PackageResources.ui_css)
        case "/ui/osc.js": return WebSurfaceAsset(contentType: javaScript, body: PackageResources.osc_js)
        case "/ui/math.js": return WebSurfaceAsset(contentType: javaScript, body: PackageResources.math_js)
        case "/ui/input.js": return WebSurfaceAsset(contentType: javaScript, body: PackageResources.input_js)
        case "/ui/wave.js": return WebSurfaceAsset(contentType: javaScript, body: PackageResources.wave_js)
        case "/ui/ui.js": return WebSurfaceAsset(contentType: javaScript, body: PackageResources.ui_js)
        default: return nil
        }
    }

    /// The HTML with the theme's JSON in its `theme` script element (empty without a theme).
    ///
    /// Every `<` of the JSON is written `\u003c`, which JSON reads back as the same character,
    /// so that no text in the file can close the script element.
    static func page(themeJSON: String?) -> [UInt8] {
        let template = String(decoding: PackageResources.ui_html, as: UTF8.self)
        let theme = (themeJSON ?? "").split(separator: "<", omittingEmptySubsequences: false).joined(
            separator: "\\u003c")
        let parts = template.split(separator: themePlaceholder, maxSplits: 1, omittingEmptySubsequences: false)
        return Array(parts.joined(separator: theme).utf8)
    }
}
