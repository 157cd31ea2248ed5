// The hot loops: min, max and sum of squares over a run of frames inside one bucket.
//
// audiowaveform mixes a frame by summing its channels as integers and dividing by the channel
// count with C division, which truncates toward zero. For two channels that division is a shift
// with a correction for negative odd sums, which vectorises; the sums of squares are kept in
// float lanes per run (at most `zoom` or one chunk of frames) and added to a Double per run. They
// are only for the summary: an analyzer without one (``AudioAnalyzer/summarizes`` false) runs
// the same loops without them, a quarter fewer instructions for two channels.

extension AudioAnalyzer {
    /// Adds `frames` frames from `base` to the bucket being filled.
    mutating func accumulate(_ base: UnsafePointer<Int16>, frames: Int) {
        if options.splitChannels {
            accumulateSplit(base, frames: frames)
            return
        }
        let run = Self.mixedRun(base, frames: frames, channels: channels, squares: true)
        mixedMinimum = min(mixedMinimum, run.minimum)
        mixedMaximum = max(mixedMaximum, run.maximum)
        bucketSquares += run.squares
    }

    /// The min, max and sum of squares of `frames` mixed frames: the vectorised loop for one or
    /// two channels (SSE2 on x86-64, `SIMD` elsewhere), the scalar loop for more. With `squares`
    /// false (pass a constant) the SSE2 loops skip the sum, which is then not to be used.
    @inline(__always)
    static func mixedRun(_ base: UnsafePointer<Int16>, frames: Int, channels: Int, squares: Bool) -> (
        minimum: Int32, maximum: Int32, squares: Double
    ) {
        #if arch(x86_64)
            switch channels {
            case 1: return monoRunSSE2(base, frames: frames, squares: squares)
            case 2: return stereoMixedRunSSE2(base, frames: frames, squares: squares)
            default: return scalarMixedRun(base, frames: frames, channels: channels)
            }
        #else
            switch channels {
            case 1: return monoRun(base, frames: frames)
            case 2: return stereoMixedRun(base, frames: frames)
            default: return scalarMixedRun(base, frames: frames, channels: channels)
            }
        #endif
    }

    /// Analyses as many whole buckets of mixed frames as `frames` holds, starting at a bucket
    /// boundary, and returns the frames used. The pairs go to ``deliver(_:)`` a block of up to
    /// ``sinkBlockLength`` indices at a time, not bucket by bucket.
    mutating func consumeWholeBuckets(_ base: UnsafePointer<Int16>, frames: Int) -> Int {
        summarizes
            ? consumeWholeBuckets(base, frames: frames, summarizing: true)
            : consumeWholeBuckets(base, frames: frames, summarizing: false)
    }

    /// The loop of ``consumeWholeBuckets(_:frames:)``, once with the summary and once without.
    @inline(__always)
    private mutating func consumeWholeBuckets(_ base: UnsafePointer<Int16>, frames: Int, summarizing: Bool) -> Int {
        let zoom = options.zoom
        let whole = frames / zoom
        guard whole > 0 else { return 0 }
        let eightBits = options.bits == 8
        let channels = channels
        let block = Self.sinkBlockLength
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 2 * min(whole, block)) { pairs in
            var bucket = 0
            while bucket < whole {
                let batch = min(whole - bucket, block)
                for index in 0..<batch {
                    let start = base + (bucket + index) * zoom * channels
                    let run = Self.mixedRun(start, frames: zoom, channels: channels, squares: summarizing)
                    pairs[2 * index] = Int16(eightBits ? run.minimum / 256 : run.minimum)
                    pairs[2 * index + 1] = Int16(eightBits ? run.maximum / 256 : run.maximum)
                    if summarizing {
                        summary.add(
                            frames: zoom, peak: UInt16(max(-run.minimum, run.maximum)), sumSquares: run.squares)
                    }
                }
                deliver(UnsafeBufferPointer(rebasing: pairs[0..<(2 * batch)]))
                bucket += batch
            }
        }
        pairCount += whole
        return whole * zoom
    }

    private mutating func accumulateSplit(_ base: UnsafePointer<Int16>, frames: Int) {
        if channels == 1 {
            let run = Self.mixedRun(base, frames: frames, channels: 1, squares: true)
            bucketMinimum[0] = min(bucketMinimum[0], run.minimum)
            bucketMaximum[0] = max(bucketMaximum[0], run.maximum)
            bucketSquares += run.squares
            return
        }
        #if arch(x86_64)
            if channels == 2 {
                let run = Self.stereoSplitRunSSE2(base, frames: frames)
                bucketMinimum[0] = min(bucketMinimum[0], run.minimum.0)
                bucketMinimum[1] = min(bucketMinimum[1], run.minimum.1)
                bucketMaximum[0] = max(bucketMaximum[0], run.maximum.0)
                bucketMaximum[1] = max(bucketMaximum[1], run.maximum.1)
                bucketSquares += run.squares
                return
            }
        #endif
        let channels = channels
        var squares: Int64 = 0
        bucketMinimum.withUnsafeMutableBufferPointer { minimum in
            bucketMaximum.withUnsafeMutableBufferPointer { maximum in
                var pointer = base
                for _ in 0..<frames {
                    for channel in 0..<channels {
                        let value = Int32(pointer[channel])
                        minimum[channel] = min(minimum[channel], value)
                        maximum[channel] = max(maximum[channel], value)
                        squares &+= Int64(value &* value)
                    }
                    pointer += channels
                }
            }
        }
        bucketSquares += Double(squares)
    }

    @inline(__always)
    static func monoRun(_ base: UnsafePointer<Int16>, frames: Int) -> (minimum: Int32, maximum: Int32, squares: Double)
    {
        var low = SIMD8<Int16>(repeating: Int16.max)
        var high = SIMD8<Int16>(repeating: Int16.min)
        var squares = SIMD8<Float>()
        let raw = UnsafeRawPointer(base)
        let blocks = frames / 8
        for block in 0..<blocks {
            let values = raw.loadUnaligned(fromByteOffset: block &* 16, as: SIMD8<Int16>.self)
            low = pointwiseMin(low, values)
            high = pointwiseMax(high, values)
            let real = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: values))
            squares += real * real
        }
        var minimum = Int32(low.min())
        var maximum = Int32(high.max())
        var total = Double(squares.sum())
        for index in (blocks * 8)..<frames {
            let value = Int32(base[index])
            minimum = min(minimum, value)
            maximum = max(maximum, value)
            total += Double(value * value)
        }
        return (minimum, maximum, total)
    }

    @inline(__always)
    static func stereoMixedRun(_ base: UnsafePointer<Int16>, frames: Int) -> (
        minimum: Int32, maximum: Int32, squares: Double
    ) {
        var low = SIMD8<Int16>(repeating: Int16.max)
        var high = SIMD8<Int16>(repeating: Int16.min)
        var squares = SIMD8<Float>()
        let raw = UnsafeRawPointer(base)
        let blocks = frames / 8
        for block in 0..<blocks {
            // Eight frames as 32-bit words: the left sample in the low half, the right in the high.
            let words = raw.loadUnaligned(fromByteOffset: block &* 32, as: SIMD8<Int32>.self)
            let sum = ((words &<< 16) &>> 16) &+ (words &>> 16)
            // sum / 2 truncating toward zero: add 1 to negative sums before the arithmetic shift.
            let wide = (sum &- (sum &>> 31)) &>> 1
            // The mix always fits 16 bits, where min and max are single instructions even on SSE2.
            let mixed = SIMD8<Int16>(truncatingIfNeeded: wide)
            low = pointwiseMin(low, mixed)
            high = pointwiseMax(high, mixed)
            let real = SIMD8<Float>(wide)
            squares += real * real
        }
        var minimum = Int32(low.min())
        var maximum = Int32(high.max())
        var total = Double(squares.sum())
        for frame in (blocks * 8)..<frames {
            let mixed = (Int32(base[2 * frame]) + Int32(base[2 * frame + 1])) / 2
            minimum = min(minimum, mixed)
            maximum = max(maximum, mixed)
            total += Double(mixed * mixed)
        }
        return (minimum, maximum, total)
    }

    /// Three or more channels: each frame summed as integers and divided with C division.
    static func scalarMixedRun(_ base: UnsafePointer<Int16>, frames: Int, channels: Int) -> (
        minimum: Int32, maximum: Int32, squares: Double
    ) {
        var minimum = Int32(Int16.max)
        var maximum = Int32(Int16.min)
        var squares: Int64 = 0
        let divisor = Int32(channels)
        var pointer = base
        for _ in 0..<frames {
            var sum: Int32 = 0
            for channel in 0..<channels { sum &+= Int32(pointer[channel]) }
            let mixed = sum / divisor
            minimum = min(minimum, mixed)
            maximum = max(maximum, mixed)
            squares &+= Int64(mixed &* mixed)
            pointer += channels
        }
        return (minimum, maximum, Double(squares))
    }

    /// audiowaveform's float to 16-bit conversion: × 32767, truncated toward zero, clamped to ±32767.
    static func convert(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Int16>) {
        convert(input, into: output, lower: -32767, upper: 32767, rounding: false)
    }

    /// libsndfile's float to 16-bit conversion (× 32767, rounded to nearest even), clamped to
    /// −32768…32767 instead of wrapping around.
    static func convertRounding(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Int16>) {
        convert(input, into: output, lower: -32768, upper: 32767, rounding: true)
    }

    @inline(__always)
    private static func convert(
        _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Int16>, lower: Float,
        upper: Float, rounding: Bool
    ) {
        guard let source = input.baseAddress, let target = output.baseAddress else { return }
        // Adding 1.5 × 2^23 to a float of magnitude below 2^22 rounds it to an integer, ties to
        // even, which then sits in the low bits of the sum's bit pattern: SSE2 arithmetic only.
        // The clamp comes first, so the magnitude is always small enough.
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let magicBits = SIMD8<Int32>(repeating: 0x4B40_0000)
        let low = SIMD8<Float>(repeating: lower)
        let high = SIMD8<Float>(repeating: upper)
        let one = SIMD8<Int32>(repeating: 1)
        let zero = SIMD8<Float>()
        let blocks = input.count / 8
        for block in 0..<blocks {
            var values =
                UnsafeRawPointer(source).loadUnaligned(fromByteOffset: block &* 32, as: SIMD8<Float>.self) * 32767
            values.replace(with: zero, where: values .!= values)
            values.replace(with: high, where: values .> high)
            values.replace(with: low, where: values .< low)
            let sum = values + magic
            var integers = unsafeBitCast(sum, to: SIMD8<Int32>.self) &- magicBits
            if !rounding {
                // Toward zero: undo a rounding that went away from zero.
                let nearest = sum - magic
                integers.replace(with: integers &- one, where: nearest .> values .& values .> zero)
                integers.replace(with: integers &+ one, where: nearest .< values .& values .< zero)
            }
            UnsafeMutableRawPointer(target).storeBytes(
                of: SIMD8<Int16>(truncatingIfNeeded: integers), toByteOffset: block &* 16, as: SIMD8<Int16>.self)
        }
        for index in (blocks * 8)..<input.count {
            var scaled = input[index] * 32767
            if scaled.isNaN { scaled = 0 }
            scaled = min(upper, max(lower, scaled))
            output[index] = Int16(rounding ? scaled.rounded(.toNearestOrEven) : scaled)
        }
    }
}
