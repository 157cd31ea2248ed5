/// Frames of a waveform at changing progress, composed from two layers drawn once: for a
/// playhead that moves at 120 frames per second.
///
/// On creation the bars are drawn twice, all played and all unplayed. A new progress value
/// then only copies the pixel columns between the previous progress point and the new one from
/// the right layer, in the rows that bars occupy, and mixes the one column that the new point
/// crosses, so a frame costs O(rows × columns moved) and never draws a bar. Every frame is
/// byte for byte what ``WaveformRasterizer/render(_:progress:)`` draws at the same progress.
///
/// Read ``frame``, draw it and let it go before the next ``compose(progress:)``: a copy still
/// held elsewhere shares its bytes, and the next compose would then copy the whole canvas first.
public struct WaveformFrameComposer: Sendable {
    /// The bars and the style.
    public let layout: WaveformLayout
    /// The current frame.
    public private(set) var frame: RasterCanvas
    /// The progress the current frame shows, clamped to 0…1.
    public private(set) var progress: Double

    private let played: RasterCanvas
    private let unplayed: RasterCanvas
    private let rows: Range<Int>
    /// The column the progress point crosses (mixed), or the width when everything is played.
    private var splitColumn: Int

    /// Draws the two layers and composes the first frame.
    ///
    /// - Complexity: O(width × height), once.
    public init(layout: WaveformLayout, progress: Double = 0) {
        self.layout = layout
        let rasterizer = WaveformRasterizer()
        let coverage = WaveformRasterizer.coverageMap(layout)
        (played, unplayed) = rasterizer.layers(layout, coverage: coverage.values)
        rows = coverage.rows
        frame = unplayed
        splitColumn = 0
        self.progress = 0
        compose(progress: progress)
    }

    /// Moves the frame to `progress` (clamped to 0…1; NaN reads as 0).
    ///
    /// - Complexity: O(rows with bars × columns between the old and the new progress point).
    public mutating func compose(progress newProgress: Double) {
        let split = layout.splitX(progress: newProgress)
        progress = split / Double(layout.style.width)
        let width = layout.style.width
        let column = min(Int(split.rounded(.down)), width)
        if column > splitColumn {
            copy(columns: splitColumn..<column, from: played)
        } else if column < splitColumn {
            copy(columns: (column + 1)..<min(splitColumn + 1, width), from: unplayed)
        }
        splitColumn = column
        guard column < width else { return }
        let fraction = split - Double(column)
        for row in rows {
            let index = row * width + column
            frame[index] = RasterPixel.split(played: played[index], unplayed: unplayed[index], fraction: fraction)
        }
    }

    private mutating func copy(columns: Range<Int>, from layer: RasterCanvas) {
        guard !columns.isEmpty, !rows.isEmpty else { return }
        let rowBytes = layout.style.width * 4
        let start = columns.lowerBound * 4
        let count = columns.count * 4
        let rows = rows
        layer.bytes.withUnsafeBytes { source in
            frame.bytes.withUnsafeMutableBytes { target in
                for row in rows {
                    let offset = row * rowBytes + start
                    (target.baseAddress! + offset).copyMemory(from: source.baseAddress! + offset, byteCount: count)
                }
            }
        }
    }
}
