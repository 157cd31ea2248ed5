/// How min/max data is computed: audiowaveform's `-z`, `-b` and `--split-channels`.
public struct WaveformOptions: Sendable, Equatable {
    /// Frames per (min, max) pair (audiowaveform's samples per pixel), at least 1.
    public var zoom: Int = 256
    /// 16, or 8 for values divided by 256 truncating toward zero.
    public var bits: Int = 16
    /// `false`: the channels are mixed into one as audiowaveform mixes them (integer sum divided by
    /// the channel count, truncating toward zero); `true`: one pair per channel.
    public var splitChannels = false

    /// Creates options; the defaults are audiowaveform's.
    public init(zoom: Int = 256, bits: Int = 16, splitChannels: Bool = false) {
        self.zoom = zoom
        self.bits = bits
        self.splitChannels = splitChannels
    }

    /// Whether the options can be used: a zoom of at least 1 and 8 or 16 bits.
    public var isValid: Bool {
        zoom >= 1 && zoom <= Int(Int32.max) && (bits == 8 || bits == 16)
    }
}
