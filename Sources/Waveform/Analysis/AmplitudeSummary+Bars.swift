extension AmplitudeSummary {
    /// Full scale of the 16-bit values: audiowaveform's float scale. −32768 gives a bar of 1 too.
    static let fullScale: Float = 32767

    /// `count` bar heights 0…1 spread evenly over the whole audio.
    ///
    /// Bar `i` covers frames `i × frames / count ..< (i + 1) × frames / count` and takes every
    /// bucket those frames touch. When there are more bars than buckets, a bar takes the one
    /// bucket it starts in, so neighbouring bars repeat a value rather than invent detail; use a
    /// smaller zoom for more buckets. A summary of no frames, or of silence, gives bars of 0.
    ///
    /// - Parameters:
    ///   - count: 1…``maximumBarCount``.
    ///   - reduction: the peak (default), the root mean square, or the peak in decibels.
    ///   - normalization: ``BarNormalization/loudest`` scales the bars so that the loudest is 1;
    ///     ``BarNormalization/fullScale`` keeps the level of full scale at 1.
    /// - Complexity: O(`count` + ``bucketCount``).
    public func bars(count: Int, reduction: BarReduction = .peak, normalization: BarNormalization = .loudest)
        -> [Float]
    {
        precondition((1...Self.maximumBarCount).contains(count), "bar count must be 1…65536")
        var bars = [Float](repeating: 0, count: count)
        let buckets = bucketCount
        guard frameCount > 0, buckets > 0 else { return bars }
        for bar in 0..<count {
            let start = bar * frameCount / count
            let end = max(start + 1, (bar + 1) * frameCount / count)
            let first = min(buckets - 1, start / framesPerBucket)
            let last = max(first, min(buckets - 1, (end - 1) / framesPerBucket))
            var peak: UInt16 = 0
            var squares: Double = 0
            var frames = 0
            for index in first...last {
                let bucket = bucket(index)
                peak = max(peak, bucket.peak)
                squares += bucket.sumSquares
                frames += bucket.frames
            }
            let linearPeak = min(1, Float(peak) / Self.fullScale)
            switch reduction {
            case .peak:
                bars[bar] = linearPeak
            case .rms:
                bars[bar] = frames > 0 ? min(1, Float((squares / Double(frames)).squareRoot()) / Self.fullScale) : 0
            case .db:
                bars[bar] = BarReduction.decibelHeight(linear: linearPeak)
            }
        }
        if normalization == .loudest, let loudest = bars.max(), loudest > 0 {
            for index in bars.indices { bars[index] /= loudest }
        }
        return bars
    }

    /// The peak absolute value 0…1 of full scale between two times, in seconds.
    ///
    /// The answer is exact to a bucket: it covers every bucket the interval touches. Times are
    /// clamped to the audio; an empty interval takes the bucket at `fromSeconds`.
    public func peak(fromSeconds: Double, toSeconds: Double) -> Float {
        let buckets = bucketCount
        guard frameCount > 0, buckets > 0 else { return 0 }
        let rate = Double(sampleRate)
        let start = Int(min(Double(frameCount - 1), max(0, (fromSeconds * rate).rounded(.down))))
        let endTime = (toSeconds * rate).rounded(.up)
        let end = max(start + 1, Int(min(Double(frameCount), max(0, endTime.isNaN ? 0 : endTime))))
        let first = min(buckets - 1, start / framesPerBucket)
        let last = max(first, min(buckets - 1, (end - 1) / framesPerBucket))
        var peak: UInt16 = 0
        for index in first...last { peak = max(peak, bucket(index).peak) }
        return min(1, Float(peak) / Self.fullScale)
    }
}
