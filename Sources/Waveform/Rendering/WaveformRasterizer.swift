import Controls

/// Draws a waveform into a ``RasterCanvas`` with anti-aliased edges, pixel by pixel from the
/// bars' geometry.
///
/// Each pixel's coverage (the sum of ``WaveformBar/coverage(column:row:)`` over the bars that
/// touch it; bars never overlap, so the sum is the union's area) shades the played and the
/// unplayed colour over the background. Pixels wholly left of the progress point take the
/// played shade, pixels wholly right of it the unplayed one, and the one pixel column that the
/// point crosses mixes the two by the fraction of the pixel left of the point. The
/// ``WaveformFrameComposer`` produces the same bytes without drawing the bars again.
public struct WaveformRasterizer: Sendable {
    /// Creates a rasterizer.
    public init() {}

    /// The picture of `layout` at `progress`.
    ///
    /// - Complexity: O(width × height).
    public func render(_ layout: WaveformLayout, progress: Double) -> RasterCanvas {
        let style = layout.style
        let coverage = Self.coverageMap(layout).values
        let split = layout.splitX(progress: progress)
        let background = RasterPixel.shaded(style.unplayedColor, coverage: 0, over: style.backgroundColor)
        var canvas = RasterCanvas(width: style.width, height: style.height, filledWith: background)
        canvas.bytes.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            for row in 0..<style.height {
                for column in 0..<style.width {
                    let index = row * style.width + column
                    let covered = coverage[index]
                    guard covered > 0 else { continue }
                    let fraction = min(max(split - Double(column), 0), 1)
                    let played =
                        fraction > 0
                        ? RasterPixel.shaded(style.playedColor, coverage: covered, over: style.backgroundColor)
                        : .clear
                    let unplayed =
                        fraction < 1
                        ? RasterPixel.shaded(style.unplayedColor, coverage: covered, over: style.backgroundColor)
                        : .clear
                    RasterPixel.split(played: played, unplayed: unplayed, fraction: fraction).store(
                        at: base + index * 4)
                }
            }
        }
        return canvas
    }

    /// Every bar drawn in the played colour, and every bar in the unplayed colour, over the
    /// background: the layers of the frame composer.
    func layers(_ layout: WaveformLayout, coverage: [Double]) -> (played: RasterCanvas, unplayed: RasterCanvas) {
        let style = layout.style
        let background = style.backgroundColor
        func layer(_ color: RGBAColor) -> RasterCanvas {
            let empty = RasterPixel.shaded(color, coverage: 0, over: background)
            let full = RasterPixel.shaded(color, coverage: 1, over: background)
            var canvas = RasterCanvas(width: style.width, height: style.height, filledWith: empty)
            canvas.bytes.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                for (index, covered) in coverage.enumerated() where covered > 0 {
                    let pixel = covered >= 1 ? full : RasterPixel.shaded(color, coverage: covered, over: background)
                    pixel.store(at: base + index * 4)
                }
            }
            return canvas
        }
        return (layer(style.playedColor), layer(style.unplayedColor))
    }

    /// The coverage of every pixel, row by row, and the rows that any bar touches.
    static func coverageMap(_ layout: WaveformLayout) -> (values: [Double], rows: Range<Int>) {
        let width = layout.style.width
        let height = layout.style.height
        var values = [Double](repeating: 0, count: width * height)
        var firstRow = height
        var endRow = 0
        values.withUnsafeMutableBufferPointer { values in
            for bar in layout.bars {
                let columns = max(0, Int(bar.x.rounded(.down)))..<min(width, Int(bar.maxX.rounded(.up)))
                let rows = max(0, Int(bar.y.rounded(.down)))..<min(height, Int(bar.maxY.rounded(.up)))
                guard !columns.isEmpty, !rows.isEmpty else { continue }
                firstRow = min(firstRow, rows.lowerBound)
                endRow = max(endRow, rows.upperBound)
                for row in rows {
                    for column in columns {
                        values[row * width + column] += bar.coverage(column: column, row: row)
                    }
                }
            }
            // Bars never overlap, so a sum above 1 is rounding: keep coverage a fraction.
            for index in values.indices where values[index] > 1 {
                values[index] = 1
            }
        }
        return (values, firstRow < endRow ? firstRow..<endRow : 0..<0)
    }
}
