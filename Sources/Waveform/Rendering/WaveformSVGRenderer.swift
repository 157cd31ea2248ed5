import Controls

/// Draws a waveform as an SVG document, deterministically: the same bars, style and progress
/// give the same bytes, so that pictures can be compared with stored files.
///
/// Bars wholly before the progress point are drawn in a group filled with the played colour,
/// bars wholly after it in a group with the unplayed colour. The bar that the progress point
/// falls inside is drawn twice, each copy clipped to its side of the point (two clip paths,
/// `played` and `unplayed`), so the colour changes exactly at `progress × width`. Coordinates
/// are rounded to hundredths; colours are `#RRGGBB` with a `fill-opacity` when not opaque.
public struct WaveformSVGRenderer: Sendable {
    /// What the clip paths' identifiers start with: give each picture its own when several are
    /// put inline in one HTML page, where identifiers are shared.
    public var idPrefix: String

    /// Creates a renderer.
    ///
    /// - Parameter idPrefix: what the clip paths' identifiers start with (`played`, `unplayed`).
    public init(idPrefix: String = "") {
        self.idPrefix = idPrefix
    }

    /// The picture of `layout` at `progress` as a complete SVG document.
    ///
    /// - Parameters:
    ///   - layout: the bars and the style.
    ///   - progress: how much has been played, 0…1.
    /// - Returns: the document, ending with a newline.
    /// - Complexity: O(n) in the number of bars.
    public func render(_ layout: WaveformLayout, progress: Double) -> String {
        let style = layout.style
        let split = layout.splitX(progress: progress)
        var lines = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(style.width)\" height=\"\(style.height)\""
                + " viewBox=\"0 0 \(style.width) \(style.height)\">"
        ]
        if let background = style.backgroundColor {
            lines.append(
                "  <rect width=\"\(style.width)\" height=\"\(style.height)\"\(fill(background))/>")
        }
        let played = layout.bars.filter { $0.maxX <= split }
        let unplayed = layout.bars.filter { $0.x >= split }
        let straddling = layout.bars.filter { $0.x < split && $0.maxX > split }
        if !straddling.isEmpty {
            lines.append("  <defs>")
            lines.append(
                "    <clipPath id=\"\(idPrefix)played\"><rect width=\"\(number(split))\" height=\"\(style.height)\"/></clipPath>"
            )
            lines.append(
                "    <clipPath id=\"\(idPrefix)unplayed\"><rect x=\"\(number(split))\" width=\"\(number(Double(style.width) - split))\""
                    + " height=\"\(style.height)\"/></clipPath>")
            lines.append("  </defs>")
        }
        lines += group(played, color: style.playedColor)
        lines += group(unplayed, color: style.unplayedColor)
        for bar in straddling {
            lines.append("  " + rect(bar, extra: fill(style.playedColor) + " clip-path=\"url(#\(idPrefix)played)\""))
            lines.append(
                "  " + rect(bar, extra: fill(style.unplayedColor) + " clip-path=\"url(#\(idPrefix)unplayed)\""))
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func group(_ bars: [WaveformBar], color: RGBAColor) -> [String] {
        guard !bars.isEmpty else { return [] }
        return ["  <g\(fill(color))>"] + bars.map { "    " + rect($0, extra: "") } + ["  </g>"]
    }

    private func rect(_ bar: WaveformBar, extra: String) -> String {
        var text =
            "<rect x=\"\(number(bar.x))\" y=\"\(number(bar.y))\" width=\"\(number(bar.width))\""
            + " height=\"\(number(bar.height))\""
        if bar.cornerRadius > 0 {
            text += " rx=\"\(number(bar.cornerRadius))\""
        }
        return text + extra + "/>"
    }

    private func fill(_ color: RGBAColor) -> String {
        let alpha = color.components8.alpha
        return " fill=\"\(color.hexRGB)\"" + (alpha == 255 ? "" : " fill-opacity=\"\(number(Double(alpha) / 255))\"")
    }

    /// A coordinate rounded to hundredths, without trailing zeros or a negative zero.
    private func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let whole = magnitude / 100
        let fraction = magnitude % 100
        guard fraction != 0 else { return sign + String(whole) }
        let digits = fraction < 10 ? "0" + String(fraction) : String(fraction)
        return sign + String(whole) + "." + (digits.hasSuffix("0") ? String(digits.dropLast()) : digits)
    }
}
