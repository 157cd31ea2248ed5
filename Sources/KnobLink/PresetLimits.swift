/// How much a ``PresetStore`` lets its users write (PROTOCOL.md section 8).
///
/// Without them one peer saving under ever new names filled the disk (70 MB in 10 s): the count
/// and the bytes bound what the directory holds, the save rate how fast it is rewritten.
/// Replacing a preset does not add to the count, only the difference in size to the bytes.
public struct PresetLimits: Sendable, Hashable {
    /// The most presets in the directory (`--max-presets`).
    public var maximumCount: Int
    /// The most bytes all presets together may take (`--max-preset-bytes`).
    public var maximumBytes: Int
    /// Saves a second, all peers together (`--preset-save-rate`), in bursts of up to
    /// ``saveBurst``.
    public var savesPerSecond: Int
    /// The most saves let through at once after a quiet time.
    public var saveBurst: Int

    /// The limits of `knoblink serve`: 256 presets, 64 MiB, 2 saves a second in bursts of 10.
    public init(maximumCount: Int = 256, maximumBytes: Int = 64 << 20, savesPerSecond: Int = 2, saveBurst: Int = 10) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
        self.savesPerSecond = savesPerSecond
        self.saveBurst = saveBurst
    }

    /// No limits, for a store only its embedder writes to.
    public static let unlimited = PresetLimits(
        maximumCount: .max, maximumBytes: .max, savesPerSecond: 1_000_000_000, saveBurst: 1_000_000_000)
}
