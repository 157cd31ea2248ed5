/// Draws knobs and toggles as SVG documents, deterministically: the same states and theme give
/// the same bytes, so that pictures can be compared with stored files.
///
/// A knob is its square (track, value arc, indicator from ``KnobGeometry``) with the title below,
/// overlapping the square's bottom gap by 8 units as the original stacks them. A toggle is a ring
/// (filled in the middle when on) followed by its label. Coordinates are rounded to hundredths.
public struct SVGRenderer: Sendable {
    /// Colours, strokes, angles and the font.
    public var theme: Theme
    /// The side of a knob's square.
    public var knobDiameter: Double
    /// The colour behind everything, or `nil` for a transparent picture.
    public var background: RGBAColor?

    /// How far the title moves up into the knob's square.
    static let titleOverlap = 8.0
    /// The space between controls in a group.
    static let spacing = 18.0
    /// The margin around a group.
    static let padding = 8.0

    /// Creates a renderer.
    public init(theme: Theme = Theme(), knobDiameter: Double = 100, background: RGBAColor? = nil) {
        self.theme = theme
        self.knobDiameter = knobDiameter
        self.background = background
    }

    /// One knob as a complete SVG document.
    public func render(knob: KnobFeature.State) -> String {
        document(size: size(of: .knob(knob))) { knobElements(knob, at: ControlPoint(x: 0, y: 0)) }
    }

    /// One toggle as a complete SVG document.
    public func render(toggle: ToggleFeature.State) -> String {
        document(size: size(of: .toggle(toggle))) { toggleElements(toggle, at: ControlPoint(x: 0, y: 0)) }
    }

    /// Controls side by side, under an optional title, as a complete SVG document.
    public func render(group title: String?, controls: [ControlItem]) -> String {
        let sizes = controls.map(size(of:))
        let titleHeight = title == nil ? 0 : lineHeight + Self.padding
        let width =
            Self.padding * 2 + sizes.map(\.width).reduce(0, +) + Self.spacing * Double(max(controls.count - 1, 0))
        let height = Self.padding * 2 + titleHeight + (sizes.map(\.height).max() ?? 0)
        return document(size: (width, height)) {
            var lines: [String] = []
            if let title {
                lines.append(
                    text(title, x: Self.padding, baseline: Self.padding + theme.font.size, anchor: "start", bold: true))
            }
            var x = Self.padding
            for (control, size) in zip(controls, sizes) {
                let origin = ControlPoint(x: x, y: Self.padding + titleHeight)
                switch control {
                case .knob(let state): lines += knobElements(state, at: origin)
                case .toggle(let state): lines += toggleElements(state, at: origin)
                }
                x += size.width + Self.spacing
            }
            return lines
        }
    }

    /// The width and height a control takes.
    public func size(of control: ControlItem) -> (width: Double, height: Double) {
        switch control {
        case .knob:
            return (knobDiameter, knobDiameter - Self.titleOverlap + lineHeight)
        case .toggle(let state):
            return (toggleMarkSize + 4 + textWidth(state.displayName), max(toggleMarkSize, lineHeight))
        }
    }

    private var lineHeight: Double {
        (theme.font.size * 1.25).rounded()
    }

    private var toggleMarkSize: Double {
        theme.font.size
    }

    /// An estimate of a label's width: SVG has no text metrics, and the layout must not depend on
    /// the fonts installed where the picture is viewed.
    private func textWidth(_ text: String) -> Double {
        (Double(text.count) * theme.font.size * 0.6).rounded()
    }

    private func knobElements(_ state: KnobFeature.State, at origin: ControlPoint) -> [String] {
        let geometry = KnobGeometry(diameter: knobDiameter, norm: state.track.norm, theme: theme, origin: origin)
        var lines = [
            "<g class=\"knob\" id=\"knob-\(state.id)\">",
            "  " + arc(geometry.track, color: theme.controlBackgroundColor, stroke: theme.controlTrackStrokeStyle),
        ]
        if let value = geometry.value {
            lines.append("  " + arc(value, color: theme.controlForegroundColor, stroke: theme.controlValueStrokeStyle))
        }
        let indicator = geometry.indicator
        lines.append(
            "  <line x1=\"\(number(indicator.from.x))\" y1=\"\(number(indicator.from.y))\" x2=\"\(number(indicator.to.x))\""
                + " y2=\"\(number(indicator.to.y))\"\(strokeAttributes(theme.controlForegroundColor, theme.controlValueStrokeStyle))/>"
        )
        lines.append(
            "  "
                + text(
                    state.title.text, x: geometry.center.x,
                    baseline: origin.y + knobDiameter - Self.titleOverlap + theme.font.size, anchor: "middle"))
        lines.append("</g>")
        return lines
    }

    private func toggleElements(_ state: ToggleFeature.State, at origin: ControlPoint) -> [String] {
        let size = self.size(of: .toggle(state))
        let radius = toggleMarkSize / 2 - 1
        let center = ControlPoint(x: origin.x + toggleMarkSize / 2, y: origin.y + size.height / 2)
        let symbol = state.isOn ? theme.toggleOnIndicatorSystemName : theme.toggleOffIndicatorSystemName
        var lines = [
            "<g class=\"toggle\" data-symbol=\"\(escape(symbol))\" aria-label=\"\(state.isOn ? "Checked" : "Unchecked")\">",
            "  <circle cx=\"\(number(center.x))\" cy=\"\(number(center.y))\" r=\"\(number(radius))\" fill=\"none\""
                + "\(strokeAttributes(theme.controlForegroundColor, StrokeStyle(lineWidth: 2)))/>",
        ]
        if state.isOn {
            lines.append(
                "  <circle cx=\"\(number(center.x))\" cy=\"\(number(center.y))\" r=\"\(number(radius / 2))\""
                    + " fill=\"\(theme.controlForegroundColor.hexRGB)\"\(opacity("fill", theme.controlForegroundColor))/>"
            )
        }
        lines.append(
            "  "
                + text(
                    state.displayName, x: origin.x + toggleMarkSize + 4,
                    baseline: center.y + theme.font.size * 0.35, anchor: "start"))
        lines.append("</g>")
        return lines
    }

    private func document(size: (width: Double, height: Double), _ body: () -> [String]) -> String {
        let width = number(size.width)
        let height = number(size.height)
        var lines = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
                + " viewBox=\"0 0 \(width) \(height)\">"
        ]
        if let background {
            lines.append(
                "<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(background.hexRGB)\"\(opacity("fill", background))/>"
            )
        }
        lines += body()
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func arc(_ arc: KnobGeometry.Arc, color: RGBAColor, stroke: StrokeStyle) -> String {
        // An SVG arc cannot close a full circle; a sweep of 360° or more is drawn just short of it.
        var arc = arc
        let sweep = arc.sweepDegrees
        if abs(sweep) >= 360 {
            arc.endAngle = Angle(degrees: arc.startAngle.degrees + (sweep > 0 ? 359.99 : -359.99))
        }
        let start = arc.startPoint
        let end = arc.endPoint
        let large = abs(arc.sweepDegrees) > 180 ? 1 : 0
        let clockwise = arc.sweepDegrees > 0 ? 1 : 0
        let radius = number(arc.radius)
        return "<path d=\"M \(number(start.x)) \(number(start.y)) A \(radius) \(radius) 0 \(large) \(clockwise)"
            + " \(number(end.x)) \(number(end.y))\" fill=\"none\"\(strokeAttributes(color, stroke))/>"
    }

    private func strokeAttributes(_ color: RGBAColor, _ stroke: StrokeStyle) -> String {
        " stroke=\"\(color.hexRGB)\"\(opacity("stroke", color)) stroke-width=\"\(number(stroke.lineWidth))\""
            + " stroke-linecap=\"\(stroke.lineCap.rawValue)\""
    }

    private func opacity(_ kind: String, _ color: RGBAColor) -> String {
        color.components8.alpha == 255 ? "" : " \(kind)-opacity=\"\(number(color.alpha))\""
    }

    private func text(_ content: String, x: Double, baseline: Double, anchor: String, bold: Bool = false) -> String {
        "<text x=\"\(number(x))\" y=\"\(number(baseline))\" font-family=\"sans-serif\""
            + " font-size=\"\(number(theme.font.size))\"\(bold ? " font-weight=\"bold\"" : "") text-anchor=\"\(anchor)\""
            + " fill=\"\(theme.textColor.hexRGB)\"\(opacity("fill", theme.textColor))>\(escape(content))</text>"
    }

    /// A coordinate rounded to hundredths, without trailing zeros or a negative zero.
    func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let whole = magnitude / 100
        let fraction = magnitude % 100
        if fraction == 0 {
            return sign + String(whole)
        }
        let digits = fraction < 10 ? "0" + String(fraction) : String(fraction)
        return sign + String(whole) + "." + (digits.hasSuffix("0") ? String(digits.dropLast()) : digits)
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
