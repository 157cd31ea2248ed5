#if arch(x86_64)
    import _Builtin_intrinsics.intel

    // The mono and stereo runs with SSE2, which every x86-64 processor has. Three of its
    // instructions do most of the work and have no spelling in Swift's SIMD types: `pmaddwd`
    // against ones sums each frame's two 16-bit samples into 32 bits (the deinterleave and the
    // integer mix in one), `packssdw` narrows the mixes back to 16 bits, where `pminsw`/`pmaxsw`
    // compare eight at a time, and `pmaddwd` of the mixes with themselves gives the squares of two
    // frames in each 32-bit lane. In the squares −32768 counts as −32767, so that two of them
    // cannot overflow a lane; that is one part in 32 768 of one sample's energy.
    extension AudioAnalyzer {
        /// The smallest of eight 16-bit lanes, folding halves together instead of going lane by lane.
        @inline(__always)
        static func horizontalMinimum(_ vector: __m128i) -> Int32 {
            horizontalFold(vector, _mm_min_epi16)
        }

        /// The largest of eight 16-bit lanes.
        @inline(__always)
        static func horizontalMaximum(_ vector: __m128i) -> Int32 {
            horizontalFold(vector, _mm_max_epi16)
        }

        @inline(__always)
        private static func horizontalFold(_ vector: __m128i, _ pick: (__m128i, __m128i) -> __m128i) -> Int32 {
            // Lanes 0…3 against 4…7, then 0…1 against 2…3, then 0 against 1.
            var folded = pick(vector, _mm_unpackhi_epi64(vector, vector))
            folded = pick(folded, _mm_srli_epi64(folded, 32))
            folded = pick(folded, _mm_srli_epi32(folded, 16))
            return Int32(Int16(truncatingIfNeeded: _mm_cvtsi128_si32(folded)))
        }

        @inline(__always)
        static func horizontalSum(_ lanes: __m128) -> Double {
            Double((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
        }

        @inline(__always)
        static func monoRunSSE2(_ base: UnsafePointer<Int16>, frames: Int, squares: Bool) -> (
            minimum: Int32, maximum: Int32, squares: Double
        ) {
            var low = _mm_set1_epi16(Int16.max)
            var high = _mm_set1_epi16(Int16.min)
            var squaresA = _mm_setzero_ps()
            var squaresB = _mm_setzero_ps()
            let floor = _mm_set1_epi16(-32767)
            let raw = UnsafeRawPointer(base)
            let blocks = frames / 16
            for block in 0..<blocks {
                let first = raw.loadUnaligned(fromByteOffset: block &* 32, as: __m128i.self)
                let second = raw.loadUnaligned(fromByteOffset: block &* 32 &+ 16, as: __m128i.self)
                low = _mm_min_epi16(low, _mm_min_epi16(first, second))
                high = _mm_max_epi16(high, _mm_max_epi16(first, second))
                // A constant at every call site: the loop without squares has none of this.
                if squares {
                    let safeFirst = _mm_max_epi16(first, floor)
                    let safeSecond = _mm_max_epi16(second, floor)
                    squaresA = _mm_add_ps(squaresA, _mm_cvtepi32_ps(_mm_madd_epi16(safeFirst, safeFirst)))
                    squaresB = _mm_add_ps(squaresB, _mm_cvtepi32_ps(_mm_madd_epi16(safeSecond, safeSecond)))
                }
            }
            var minimum = horizontalMinimum(low)
            var maximum = horizontalMaximum(high)
            var total = horizontalSum(_mm_add_ps(squaresA, squaresB))
            for index in (blocks * 16)..<frames {
                let value = Int32(base[index])
                minimum = min(minimum, value)
                maximum = max(maximum, value)
                total += Double(value * value)
            }
            return (minimum, maximum, total)
        }

        @inline(__always)
        static func stereoMixedRunSSE2(_ base: UnsafePointer<Int16>, frames: Int, squares: Bool) -> (
            minimum: Int32, maximum: Int32, squares: Double
        ) {
            var low = _mm_set1_epi16(Int16.max)
            var high = _mm_set1_epi16(Int16.min)
            var squaresA = _mm_setzero_ps()
            var squaresB = _mm_setzero_ps()
            let ones = _mm_set1_epi16(1)
            let floor = _mm_set1_epi16(-32767)
            let raw = UnsafeRawPointer(base)
            @inline(__always)
            func mix(_ offset: Int) -> __m128i {
                // Eight frames: l + r per frame, then / 2 truncating toward zero (add 1 to a
                // negative sum before the arithmetic shift), narrowed to 16 bits (always in range).
                let sumA = _mm_madd_epi16(raw.loadUnaligned(fromByteOffset: offset, as: __m128i.self), ones)
                let sumB = _mm_madd_epi16(raw.loadUnaligned(fromByteOffset: offset &+ 16, as: __m128i.self), ones)
                let mixA = _mm_srai_epi32(_mm_add_epi32(sumA, _mm_srli_epi32(sumA, 31)), 1)
                let mixB = _mm_srai_epi32(_mm_add_epi32(sumB, _mm_srli_epi32(sumB, 31)), 1)
                return _mm_packs_epi32(mixA, mixB)
            }
            let blocks = frames / 16
            for block in 0..<blocks {
                let first = mix(block &* 64)
                let second = mix(block &* 64 &+ 32)
                low = _mm_min_epi16(low, _mm_min_epi16(first, second))
                high = _mm_max_epi16(high, _mm_max_epi16(first, second))
                // A constant at every call site: the loop without squares has none of this.
                if squares {
                    let safeFirst = _mm_max_epi16(first, floor)
                    let safeSecond = _mm_max_epi16(second, floor)
                    squaresA = _mm_add_ps(squaresA, _mm_cvtepi32_ps(_mm_madd_epi16(safeFirst, safeFirst)))
                    squaresB = _mm_add_ps(squaresB, _mm_cvtepi32_ps(_mm_madd_epi16(safeSecond, safeSecond)))
                }
            }
            var minimum = horizontalMinimum(low)
            var maximum = horizontalMaximum(high)
            var total = horizontalSum(_mm_add_ps(squaresA, squaresB))
            for frame in (blocks * 16)..<frames {
                let mixed = (Int32(base[2 * frame]) + Int32(base[2 * frame + 1])) / 2
                minimum = min(minimum, mixed)
                maximum = max(maximum, mixed)
                total += Double(mixed * mixed)
            }
            return (minimum, maximum, total)
        }

        /// Two channels kept apart: min and max of the interleaved samples lane by lane (even lanes
        /// are the left channel, odd ones the right), and `pmaddwd` of a frame with itself gives
        /// l² + r², the energy of both channels.
        @inline(__always)
        static func stereoSplitRunSSE2(_ base: UnsafePointer<Int16>, frames: Int) -> (
            minimum: (Int32, Int32), maximum: (Int32, Int32), squares: Double
        ) {
            var low = _mm_set1_epi16(Int16.max)
            var high = _mm_set1_epi16(Int16.min)
            var squares = _mm_setzero_ps()
            let floor = _mm_set1_epi16(-32767)
            let raw = UnsafeRawPointer(base)
            let blocks = frames / 4
            for block in 0..<blocks {
                let frames = raw.loadUnaligned(fromByteOffset: block &* 16, as: __m128i.self)
                low = _mm_min_epi16(low, frames)
                high = _mm_max_epi16(high, frames)
                let safe = _mm_max_epi16(frames, floor)
                squares = _mm_add_ps(squares, _mm_cvtepi32_ps(_mm_madd_epi16(safe, safe)))
            }
            // Fold by whole frames (32 bits), so that lane 0 stays left and lane 1 right.
            low = _mm_min_epi16(low, _mm_unpackhi_epi64(low, low))
            low = _mm_min_epi16(low, _mm_srli_epi64(low, 32))
            high = _mm_max_epi16(high, _mm_unpackhi_epi64(high, high))
            high = _mm_max_epi16(high, _mm_srli_epi64(high, 32))
            let lows = unsafeBitCast(low, to: SIMD8<Int16>.self)
            let highs = unsafeBitCast(high, to: SIMD8<Int16>.self)
            var minimum = (Int32(lows[0]), Int32(lows[1]))
            var maximum = (Int32(highs[0]), Int32(highs[1]))
            var total = horizontalSum(squares)
            for frame in (blocks * 4)..<frames {
                let left = Int32(base[2 * frame])
                let right = Int32(base[2 * frame + 1])
                minimum = (min(minimum.0, left), min(minimum.1, right))
                maximum = (max(maximum.0, left), max(maximum.1, right))
                total += Double(left * left + right * right)
            }
            return (minimum, maximum, total)
        }
    }
#endif
