import Controls

extension ScrubberFeature {
    /// A scrubber's state.
    public struct State: Sendable, Equatable {
        /// The bars, 0…1 each.
        public var bars: [Float]
        /// The progress shown, 0…1: under the finger during a drag, else playback's.
        public var progress: Double
        /// The latest progress that playback reported (or that a seek asked for), 0…1.
        public var playbackProgress: Double
        /// The width the scrubber was laid out at, in points; 0 until layout reports it.
        public var width: Double
        /// Whether a drag is on.
        public var isDragging: Bool

        /// Creates a scrubber's state.
        ///
        /// - Parameters:
        ///   - bars: the bars, 0…1 each.
        ///   - progress: the playback position, clamped to 0…1.
        ///   - width: the laid-out width, or 0 until layout reports it.
        public init(bars: [Float] = [], progress: Double = 0, width: Double = 0) {
            self.bars = bars
            let clamped = progress.isNaN ? 0 : progress.clamped(to: 0...1)
            self.progress = clamped
            self.playbackProgress = clamped
            self.width = max(0, width)
            self.isDragging = false
        }

        /// The progress for a pointer at `x` from the left edge, clamped to 0…1; `nil` before
        /// layout (no width) or for a NaN position.
        public func progress(atX x: Double) -> Double? {
            guard width > 0, !x.isNaN else { return nil }
            return (x / width).clamped(to: 0...1)
        }

        /// The index of the bar at `progress`, or `nil` without bars; progress 1 is in the last bar.
        public func barIndex(at progress: Double) -> Int? {
            guard !bars.isEmpty else { return nil }
            return min(bars.count - 1, Int((progress * Double(bars.count)).rounded(.down)))
        }

        /// Where played turns into unplayed, in points from the left edge.
        public var splitX: Double { progress * width }

        /// How many bars are wholly played.
        public var playedBarCount: Int {
            min(bars.count, Int((progress * Double(bars.count)).rounded(.down)))
        }

        /// The bars wholly played, left of the playhead.
        public var playedBars: ArraySlice<Float> { bars[..<playedBarCount] }

        /// The bars not wholly played, the one the playhead is in included.
        public var unplayedBars: ArraySlice<Float> { bars[playedBarCount...] }

        /// How much of the bar the playhead is in is played, 0…1 (0 when the playhead sits on a
        /// boundary between bars or there are no bars).
        public var splitBarFraction: Double {
            guard !bars.isEmpty else { return 0 }
            let position = progress * Double(bars.count)
            return position - position.rounded(.down)
        }
    }
}
