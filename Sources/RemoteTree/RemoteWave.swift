/// The waveform stream of the mirrored server (PROTOCOL.md section 5), as the mirror's
/// `/wave/sub` subscription hears it: the source's overview and the playhead.
public struct RemoteWave: Sendable, Equatable {
    /// The source's name (`/wave/info`).
    public var name = ""
    /// The source's length in seconds.
    public var duration = 0.0
    /// The overview's bars, 0…1 (``RemoteWave/barCount`` of them once the first frame is in).
    public var bars: [Float] = []
    /// Counts the overview frames received: a new value means new bars.
    public var source = 0
    /// The playhead, 0…1, as last heard or set.
    public var progress = 0.0
    /// Whether the server plays.
    public var isPlaying = false

    /// The bars the mirror subscribes to.
    public static let barCount = 1024
    /// The playhead updates a second it asks for while playing; the surface moves the playhead
    /// in between by itself.
    public static let progressRate: Float = 4

    /// An empty stream: no bars, the playhead at 0, paused.
    public init() {}
}

/// An overview frame that arrives in pieces (`/wave/bars i seq i offset i total b heights`).
struct RemoteWaveFrame {
    let seq: Int32
    var bars: [Float]
    var received: [Bool]
    var missing: Int

    /// A frame of `total` bars, or `nil` for a total the mirror does not accept.
    init?(seq: Int32, total: Int32) {
        guard total >= 0, total <= 65_536 else { return nil }
        self.seq = seq
        bars = Array(repeating: 0, count: Int(total))
        received = Array(repeating: false, count: Int(total))
        missing = Int(total)
    }

    /// Writes the big-endian heights of `blob` from `offset`; returns whether the frame is whole.
    mutating func add(offset: Int32, blob: [UInt8]) -> Bool {
        let count = blob.count / 4
        guard offset >= 0, Int(offset) + count <= bars.count else { return missing == 0 }
        for index in 0..<count {
            let base = index * 4
            let bits =
                UInt32(blob[base]) << 24 | UInt32(blob[base + 1]) << 16 | UInt32(blob[base + 2]) << 8
                | UInt32(blob[base + 3])
            let value = Float(bitPattern: bits)
            let bar = Int(offset) + index
            bars[bar] = value.isNaN ? 0 : min(1, max(0, value))
            if !received[bar] {
                received[bar] = true
                missing -= 1
            }
        }
        return missing == 0
    }
}
