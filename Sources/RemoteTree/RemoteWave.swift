import OSCCore

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

    /// Takes one message of the `/wave/sub` subscription (`/wave/info`, `/wave/bars`,
    /// `/wave/progress`, `/wave/playing`); `frame` is the overview frame being put together.
    /// - Returns: whether the stream changed.
    mutating func take(_ message: OSCMessage, frame: inout RemoteWaveFrame?) -> Bool {
        let arguments = message.arguments
        switch message.address {
        case "/wave/info":
            guard arguments.count >= 2, case .string(let name) = arguments[0],
                let duration = OSCArgument.number(arguments[1])
            else { return false }
            self.name = name
            self.duration = Double(duration)
        case "/wave/bars":
            guard arguments.count == 4, case .int32(let seq) = arguments[0], case .int32(let offset) = arguments[1],
                case .int32(let total) = arguments[2], case .blob(let blob) = arguments[3]
            else { return false }
            if frame?.seq != seq || frame?.bars.count != Int(total) {
                frame = RemoteWaveFrame(seq: seq, total: total)
            }
            guard frame?.add(offset: offset, blob: blob) == true, let whole = frame else { return false }
            frame = nil
            bars = whole.bars
            source += 1
        case "/wave/progress":
            guard let progress = arguments.first.flatMap(OSCArgument.number), !progress.isNaN else { return false }
            self.progress = min(1, max(0, Double(progress)))
        case "/wave/playing":
            guard let playing = arguments.first.flatMap(OSCArgument.number) else { return false }
            isPlaying = playing != 0
        default:
            return false
        }
        return true
    }
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
