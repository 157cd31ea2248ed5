/// How controls look and feel: colours, strokes, angles, the font and the drag sensitivity.
///
/// A theme is a plain value handed to whatever draws controls (the SVG renderer, the terminal
/// surface, a web page). Colours come from a ``ColorAssetCatalog`` when one is given, looked up
/// as `prefix_tag` (`VFO_controlBackgroundColor`) or the bare tag when the prefix is empty, and
/// fall back to built-in light and dark defaults.
public struct Theme: Sendable, Equatable {
    /// The catalogue colours are looked up in, or `nil` for the defaults only.
    public let assets: ColorAssetCatalog?
    /// The prefix of asset names, joined to the tag with "_"; empty for bare tags.
    public let prefix: String
    /// The appearance the colours are resolved for.
    public let colorScheme: ColorScheme

    /// The width of the value editor (kept from the original; drawing does not use it).
    public var controlEditorWidth: Double = 140
    /// How long a knob's title shows the value after a change.
    public var controlShowValueDuration: Duration = .milliseconds(1250)
    /// How long a value change animates.
    public var controlChangeAnimationDuration: Duration = .milliseconds(350)

    /// Knob diameters of vertical travel for a full sweep.
    public var touchSensitivity: Double = 2.0
    /// The fraction of the radius where a drag changes the value at full speed.
    public var maxChangeRegionWidthPercentage: Double = 0.1

    /// The background track of a knob.
    public var controlBackgroundColor: RGBAColor
    /// The value arc, the indicator and the toggle's mark.
    public var controlForegroundColor: RGBAColor
    /// Titles and labels.
    public var textColor: RGBAColor
    /// The value editor's background.
    public var editorBackgroundColor: RGBAColor
    /// The editor's Cancel button.
    public var editorCancelButtonColor: RGBAColor
    /// The editor's OK button.
    public var editorOKButtonColor: RGBAColor

    /// The font of titles and labels.
    public var font: ThemeFont = .callout

    /// The symbol of a toggle that is on.
    public var toggleOnIndicatorSystemName = "circle.inset.filled"
    /// The symbol of a toggle that is off.
    public var toggleOffIndicatorSystemName = "circle"

    /// The stroke of the background track.
    public var controlTrackStrokeStyle = StrokeStyle(lineWidth: 10, lineCap: .round)
    /// The stroke of the value arc and the indicator.
    public var controlValueStrokeStyle = StrokeStyle(lineWidth: 10, lineCap: .round)

    /// The gap between a knob and its title (kept from the original; drawing does not use it).
    public var controlTitleGap: Double = 12

    private var indicatorLength: Double = 16
    private var startAngle = Angle(degrees: 40)
    private var endAngle = Angle(degrees: 320)

    /// The normalised start angle (a fraction of a turn), kept in step with the start angle.
    public private(set) var controlIndicatorStartAngleNormalized: Double
    /// The normalised end angle (a fraction of a turn), kept in step with the end angle.
    public private(set) var controlIndicatorEndAngleNormalized: Double

    /// Creates a theme.
    ///
    /// - Parameters:
    ///   - assets: where to look colours up; `nil` uses the defaults.
    ///   - prefix: the asset name prefix.
    ///   - colorScheme: the appearance to resolve colours for.
    public init(assets: ColorAssetCatalog? = nil, prefix: String = "", colorScheme: ColorScheme = .light) {
        self.assets = assets
        self.prefix = prefix
        self.colorScheme = colorScheme
        controlIndicatorStartAngleNormalized = startAngle.normalized
        controlIndicatorEndAngleNormalized = endAngle.normalized
        func resolve(_ tag: ColorTag, _ light: RGBAColor, _ dark: RGBAColor? = nil) -> RGBAColor {
            Theme.lookUp(tag, assets: assets, prefix: prefix, colorScheme: colorScheme)
                ?? (colorScheme == .dark ? dark ?? light : light)
        }
        let gray = RGBAColor.systemGray
        controlBackgroundColor = resolve(
            .controlBackgroundColor, gray.mixed(with: .white, by: 0.5), RGBAColor.black.mixed(with: .white, by: 0.2))
        controlForegroundColor = resolve(.controlForegroundColor, .systemOrange)
        let text = resolve(.textColor, RGBAColor.systemOrange.mixed(with: .black, by: 0.15))
        textColor = text
        editorBackgroundColor = resolve(
            .editorBackgroundColor, gray.mixed(with: .white, by: 0.7), gray.mixed(with: .black, by: 0.7))
        editorCancelButtonColor = resolve(.editorCancelButtonColor, text)
        editorOKButtonColor = resolve(.editorOKButtonColor, text)
    }

    /// The asset name of a tag: `prefix_tag`, or the tag when the prefix is empty.
    public func assetName(for tag: ColorTag) -> String {
        Theme.assetName(for: tag, prefix: prefix)
    }

    static func assetName(for tag: ColorTag, prefix: String) -> String {
        prefix.isEmpty ? tag.rawValue : prefix + "_" + tag.rawValue
    }

    /// The catalogue's colour for `tag`, or `fallback`.
    public func taggedColor(_ tag: ColorTag, default fallback: RGBAColor) -> RGBAColor {
        Theme.lookUp(tag, assets: assets, prefix: prefix, colorScheme: colorScheme) ?? fallback
    }

    private static func lookUp(
        _ tag: ColorTag, assets: ColorAssetCatalog?, prefix: String, colorScheme: ColorScheme
    ) -> RGBAColor? {
        assets?.color(named: assetName(for: tag, prefix: prefix), scheme: colorScheme)
    }

    /// The catalogue's colour for `tag`, or the default for the scheme: index 0 is light, index 1
    /// dark (a single default serves both).
    public func taggedColor(_ tag: ColorTag, defaults: [RGBAColor]) -> RGBAColor {
        let index = colorScheme == .dark && defaults.count > 1 ? 1 : 0
        return taggedColor(tag, default: defaults.isEmpty ? .black : defaults[index])
    }

    /// The theme's current colour for `tag`.
    public func color(tag: ColorTag) -> RGBAColor {
        switch tag {
        case .controlBackgroundColor: controlBackgroundColor
        case .controlForegroundColor: controlForegroundColor
        case .textColor: textColor
        case .editorBackgroundColor: editorBackgroundColor
        case .editorCancelButtonColor: editorCancelButtonColor
        case .editorOKButtonColor: editorOKButtonColor
        }
    }

    /// The width of the value stroke.
    public var controlValueStrokeLineWidth: Double {
        controlValueStrokeStyle.lineWidth
    }

    /// Half the width of the value stroke: how far the arcs sit inside the control's edge.
    public var controlValueStrokeLineWidthHalf: Double {
        controlValueStrokeStyle.lineWidth / 2
    }

    /// The length of the indicator line, never shorter than half the value stroke's width.
    public var controlIndicatorLength: Double {
        get { indicatorLength }
        set { indicatorLength = max(newValue, controlValueStrokeLineWidthHalf) }
    }

    /// Where the arcs begin, from 6 o'clock clockwise (40° by default).
    public var controlIndicatorStartAngle: Angle {
        get { startAngle }
        set {
            startAngle = newValue
            controlIndicatorStartAngleNormalized = newValue.normalized
        }
    }

    /// Where the arcs end, from 6 o'clock clockwise (320° by default).
    public var controlIndicatorEndAngle: Angle {
        get { endAngle }
        set {
            endAngle = newValue
            controlIndicatorEndAngleNormalized = newValue.normalized
        }
    }

    /// The sweep from start to end in radians (negative when the end is before the start).
    public var controlIndicatorStartEndSpanRadians: Double {
        endAngle.radians - startAngle.radians
    }

    /// The angle of the value arc's end and of the indicator for `norm`.
    public func angle(for norm: Double) -> Angle {
        Angle(degrees: startAngle.degrees + norm * (endAngle.degrees - startAngle.degrees))
    }

    /// The end of the value arc for `norm` as a normalised fraction of a turn.
    public func endTrim(for norm: Double) -> Double {
        angle(for: norm).normalized
    }

    /// The foreground gradient for a control of `radius`: black, foreground, white.
    public func foregroundGradient(radius: Double) -> RadialGradient {
        RadialGradient(
            colors: [.black, controlForegroundColor, .white], startRadius: radius - 1.5 * controlValueStrokeLineWidth,
            endRadius: radius + controlValueStrokeLineWidthHalf)
    }

    /// The background gradient for a control of `radius`: white, background, black.
    public func backgroundGradient(radius: Double) -> RadialGradient {
        RadialGradient(
            colors: [.white, controlBackgroundColor, .black], startRadius: radius - 1.5 * controlValueStrokeLineWidth,
            endRadius: radius + controlValueStrokeLineWidthHalf)
    }
}
