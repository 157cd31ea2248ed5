/// The bars of a waveform placed in a picture: the geometry every renderer draws.
///
/// See ``WaveformStyle`` for the rules: bars fill the width in equal slots, centred
/// vertically, never shorter than the style's minimum height.
public struct WaveformLayout: Sendable, Equatable {
    /// The style the bars were placed with.
    public let style: WaveformStyle
    /// One rectangle per value, left to right.
    public let bars: [WaveformBar]

    /// Places `values` (0…1; anything outside is clamped and NaN reads as 0) in a picture.
    ///
    /// - Complexity: O(n) in the number of values.
    public init(values: [Float], style: WaveformStyle) {
        self.style = style
        guard !values.isEmpty else {
            bars = []
            return
        }
        let width = Double(style.width)
        let height = Double(style.height)
        let slot = width / Double(values.count)
        let gap = min(max(style.barGap, 0), slot / 2)
        let barWidth = slot - gap
        let minimum = min(max(style.minimumBarHeight, 0), height)
        bars = values.enumerated().map { index, value in
            let level = value.isNaN ? 0 : Double(min(max(value, 0), 1))
            let barHeight = max(minimum, level * height)
            let radius = style.barStyle == .rounded ? min(barWidth, barHeight) / 2 : 0
            return WaveformBar(
                x: Double(index) * slot + gap / 2, y: (height - barHeight) / 2, width: barWidth,
                height: barHeight, cornerRadius: radius)
        }
    }

    /// The x where played turns into unplayed for `progress` (clamped to 0…1, NaN reads as 0):
    /// `progress × width`, which may fall inside a bar.
    public func splitX(progress: Double) -> Double {
        let clamped = progress.isNaN ? 0 : min(max(progress, 0), 1)
        return clamped * Double(style.width)
    }
}
