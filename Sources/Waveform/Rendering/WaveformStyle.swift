import Controls

/// How a waveform picture looks: its size, the bars' width, gap and shape, and the colours.
///
/// Bars fill the picture's width: each of N bars gets a slot of `width / N` pixels and sits in
/// the middle of it, `barGap` narrower than the slot (half a gap at each end of the picture, as
/// the seed's SwiftUI view lays them out). ``barWidth`` is the width wished for: it decides how
/// many bars fit when the caller has no bar count of its own (``fittingBarCount``); the width
/// drawn is always the slot less the gap. Bars are centred vertically and
/// `max(minimumBarHeight, value × height)` tall, so that silence still shows as a thin line on
/// which the played part can be seen.
public struct WaveformStyle: Sendable, Equatable {
    /// The picture's width in pixels (SVG user units).
    public var width: Int
    /// The picture's height in pixels.
    public var height: Int
    /// The bar width wished for, which decides ``fittingBarCount``.
    public var barWidth: Double
    /// The space between two bars; shrunk to half a slot when the slots are narrower than that.
    public var barGap: Double
    /// Rounded or square bar ends.
    public var barStyle: WaveformBarStyle
    /// The height of a silent bar: 2 pixels by default.
    public var minimumBarHeight: Double
    /// The colour of the bars before the progress point.
    public var playedColor: RGBAColor
    /// The colour of the bars after the progress point.
    public var unplayedColor: RGBAColor
    /// The colour behind the bars, or `nil` for a transparent picture.
    public var backgroundColor: RGBAColor?

    /// Creates a style whose colours come from a theme: played bars in the theme's
    /// `controlForegroundColor` (the value arc's orange), unplayed bars in its
    /// `controlBackgroundColor` (the knob track's gray). Set the colour properties afterwards to
    /// override them.
    ///
    /// - Parameters:
    ///   - width: the picture's width in pixels, at least 1.
    ///   - height: the picture's height in pixels, at least 1.
    ///   - theme: where the bar colours come from.
    ///   - barWidth: the bar width wished for.
    ///   - barGap: the space between two bars.
    ///   - barStyle: rounded or square ends.
    ///   - minimumBarHeight: the height of a silent bar.
    ///   - backgroundColor: the colour behind the bars, or `nil` for transparent.
    public init(
        width: Int, height: Int, theme: Theme = Theme(), barWidth: Double = 3, barGap: Double = 2,
        barStyle: WaveformBarStyle = .rounded, minimumBarHeight: Double = 2, backgroundColor: RGBAColor? = nil
    ) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.barWidth = barWidth
        self.barGap = barGap
        self.barStyle = barStyle
        self.minimumBarHeight = minimumBarHeight
        self.playedColor = theme.controlForegroundColor
        self.unplayedColor = theme.controlBackgroundColor
        self.backgroundColor = backgroundColor
    }

    /// The most bars the picture can draw: one a pixel of ``width``. More would be slots
    /// narrower than a pixel, which blur into a grey smear rather than bars.
    public var maximumBarCount: Int { max(1, width) }

    /// How many bars of ``barWidth`` with ``barGap`` between them fit in ``width``: at least 1.
    public var fittingBarCount: Int {
        let pitch = max(barWidth, 0) + max(barGap, 0)
        guard pitch > 0 else { return max(1, width) }
        return max(1, Int((Double(width) / pitch).rounded(.down)))
    }
}
