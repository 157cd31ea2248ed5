/// Peaks and energies of the audio in a bounded number of buckets, from which bars of any count
/// are made without decoding again.
///
/// The summary starts with one bucket per zoom bucket of the min/max data (`zoom` frames); when
/// it holds ``capacity`` buckets, neighbours are merged in pairs and the bucket size doubles, so
/// its memory (about 0.8 MB at most) does not depend on the file's length. Each bucket keeps the
/// peak absolute value and the sum of squares of the values the min/max data is made of: the
/// mixed signal, or with split channels the loudest channel's peak and the mean square of all
/// channels.
public struct AmplitudeSummary: Sendable, Equatable {
    /// The most buckets kept: twice the largest bar count, so that every bar covers at least two
    /// buckets once the audio is long enough.
    public static let capacity = 131_072
    /// The largest bar count ``bars(count:reduction:normalization:)`` accepts.
    public static let maximumBarCount = 65_536

    /// The sample rate of the audio, in frames per second.
    public private(set) var sampleRate: Int
    /// The number of frames summarised.
    public private(set) var frameCount: Int = 0
    /// The number of frames in each bucket but the last, which may hold fewer.
    public private(set) var framesPerBucket: Int
    /// The largest absolute 16-bit value in each bucket (0…32768).
    var peaks: [UInt16] = []
    /// The sum of squared 16-bit values in each bucket, per frame: single precision (a relative
    /// error of 10^-7 is nothing for a bar) halves the store.
    var sumSquares: [Float] = []
    /// The bucket being filled: frames, peak and sum of squares.
    var pendingFrames = 0
    var pendingPeak: UInt16 = 0
    var pendingSumSquares: Double = 0

    /// Creates an empty summary whose smallest bucket holds `framesPerBucket` frames.
    public init(sampleRate: Int, framesPerBucket: Int) {
        precondition(sampleRate > 0 && framesPerBucket > 0)
        self.sampleRate = sampleRate
        self.framesPerBucket = framesPerBucket
    }

    /// Allocates the whole store at once (0.8 MB, touched only as it fills), so that it never
    /// grows by doubling.
    mutating func reserveCapacity() {
        peaks.reserveCapacity(Self.capacity)
        sumSquares.reserveCapacity(Self.capacity)
    }

    /// The number of buckets held, the last one possibly partial.
    public var bucketCount: Int { peaks.count + (pendingFrames > 0 ? 1 : 0) }

    /// Adds the next `frames` frames, whose largest absolute value is `peak` and whose squares sum
    /// to `sumSquares`; `frames` must not cross a bucket boundary.
    mutating func add(frames: Int, peak: UInt16, sumSquares squares: Double) {
        pendingFrames += frames
        pendingPeak = max(pendingPeak, peak)
        pendingSumSquares += squares
        frameCount += frames
        if pendingFrames >= framesPerBucket {
            peaks.append(pendingPeak)
            sumSquares.append(Float(pendingSumSquares))
            pendingFrames = 0
            pendingPeak = 0
            pendingSumSquares = 0
            if peaks.count == Self.capacity { mergePairs() }
        }
    }

    private mutating func mergePairs() {
        let half = peaks.count / 2
        for index in 0..<half {
            peaks[index] = max(peaks[2 * index], peaks[2 * index + 1])
            sumSquares[index] = sumSquares[2 * index] + sumSquares[2 * index + 1]
        }
        peaks.removeLast(peaks.count - half)
        sumSquares.removeLast(sumSquares.count - half)
        framesPerBucket *= 2
    }

    /// The peak, sum of squares and frame count of bucket `index` (the pending one last).
    func bucket(_ index: Int) -> (peak: UInt16, sumSquares: Double, frames: Int) {
        index < peaks.count
            ? (peaks[index], Double(sumSquares[index]), framesPerBucket)
            : (pendingPeak, pendingSumSquares, pendingFrames)
    }
}
