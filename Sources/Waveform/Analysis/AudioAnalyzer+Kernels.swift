// The hot loops: min, max and sum of squares over a run of frames inside one bucket.
//
// audiowaveform mixes a frame by summing its channels as integers and dividing by the channel
// count with C division, which truncates toward zero. For two channels that division is a shift
// with a correction for negative odd sums, which vectorises; the sums of squares are kept in
// float lanes per run (at most `zoom` or one chunk of frames) and added to a Double per run.

extension AudioAnalyzer {
    /// Adds `frames` frames from `base` to the bucket being filled.
    mutating func accumulate(_ base: UnsafePointer<Int16>, frames: Int) {
        if options.splitChannels {
            accumulateSplit(base, frames: frames)
            return
        }
        let run: (minimum: Int32, maximum: Int32, squares: Double)
        switch channels {
        case 1: run = Self.monoRun(base, frames: frames)
        case 2: run = Self.stereoMixedRun(base, frames: frames)
        default: run = Self.mixedRun(base, frames: frames, channels: channels)
        }
        bucketMinimum[0] = min(bucketMinimum[0], run.minimum)
        bucketMaximum[0] = max(bucketMaximum[0], run.maximum)
        bucketSquares += run.squares
    }

    private mutating func accumulateSplit(_ base: UnsafePointer<Int16>, frames: Int) {
        if channels == 1 {
            let run = Self.monoRun(base, frames: frames)
            bucketMinimum[0] = min(bucketMinimum[0], run.minimum)
            bucketMaximum[0] = max(bucketMaximum[0], run.maximum)
            bucketSquares += run.squares
            return
        }
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
        var low = SIMD8<Int32>(repeating: Int32(Int16.max))
        var high = SIMD8<Int32>(repeating: Int32(Int16.min))
        var squares = SIMD8<Float>()
        let raw = UnsafeRawPointer(base)
        let blocks = frames / 8
        for block in 0..<blocks {
            let values = SIMD8<Int32>(
                truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: block &* 16, as: SIMD8<Int16>.self))
            low = pointwiseMin(low, values)
            high = pointwiseMax(high, values)
            let real = SIMD8<Float>(values)
            squares = squares.addingProduct(real, real)
        }
        var minimum = low.min()
        var maximum = high.max()
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
        var low = SIMD8<Int32>(repeating: Int32(Int16.max))
        var high = SIMD8<Int32>(repeating: Int32(Int16.min))
        var squares = SIMD8<Float>()
        let raw = UnsafeRawPointer(base)
        let blocks = frames / 8
        for block in 0..<blocks {
            let pair = raw.loadUnaligned(fromByteOffset: block &* 32, as: SIMD16<Int16>.self)
            let sum = SIMD8<Int32>(truncatingIfNeeded: pair.evenHalf) &+ SIMD8<Int32>(truncatingIfNeeded: pair.oddHalf)
            // sum / 2 truncating toward zero: add 1 to negative sums before the arithmetic shift.
            let mixed = (sum &- (sum &>> 31)) &>> 1
            low = pointwiseMin(low, mixed)
            high = pointwiseMax(high, mixed)
            let real = SIMD8<Float>(mixed)
            squares = squares.addingProduct(real, real)
        }
        var minimum = low.min()
        var maximum = high.max()
        var total = Double(squares.sum())
        for frame in (blocks * 8)..<frames {
            let mixed = (Int32(base[2 * frame]) + Int32(base[2 * frame + 1])) / 2
            minimum = min(minimum, mixed)
            maximum = max(maximum, mixed)
            total += Double(mixed * mixed)
        }
        return (minimum, maximum, total)
    }

    static func mixedRun(_ base: UnsafePointer<Int16>, frames: Int, channels: Int) -> (
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
        for index in input.indices {
            let scaled = input[index] * 32767
            let clamped = scaled > 32767 ? 32767 : (scaled < -32767 ? -32767 : scaled)
            output[index] = clamped.isNaN ? 0 : Int16(clamped)
        }
    }
}
