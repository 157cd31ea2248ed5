/// Which of audiowaveform's files a ``WaveformFileWriter`` writes.
public enum WaveformFileFormat: Sendable, Equatable {
    /// The binary `.dat` file; `version` 1 or 2, or `nil` for 1 with one channel and 2 otherwise,
    /// as ``WaveformData/datBytes(version:)`` chooses.
    case dat(version: Int?)
    /// The `.json` file, as ``WaveformData/jsonText()`` writes it.
    case json
}
