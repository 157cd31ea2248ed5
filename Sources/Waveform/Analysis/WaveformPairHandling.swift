/// What an analysis does with audiowaveform's min/max pairs as it produces them.
///
/// The pairs are the only part of an analysis that grows with the length of the audio (4 bytes
/// per pair and channel); the ``AmplitudeSummary`` that bars are made from is bounded. Keeping
/// them is the default, so that ``AudioAnalysis/waveform`` holds them; a caller that only wants
/// bars discards them, and one that writes them to a file streams them to a ``WaveformPairSink``
/// (``WaveformFileWriter`` writes audiowaveform's `.dat` and `.json` files that way). Either of the
/// last two keeps the memory of an analysis bounded whatever the file length.
///
/// With ``discard`` or ``stream(_:)``, ``AudioAnalysis/waveform`` has the header fields of the
/// data but no pairs (its `length` is 0), and ``AudioAnalysis/waveformLength`` says how many
/// pairs per channel were produced.
public enum WaveformPairHandling {
    /// Keep every pair in ``AudioAnalysis/waveform`` (memory grows with the file).
    case keep
    /// Compute the summary only and drop the pairs.
    case discard
    /// Hand the pairs to `sink` in index order, a block of up to
    /// ``AudioAnalyzer/sinkBlockLength`` indices at a time, as their buckets close.
    case stream(any WaveformPairSink)

    /// Whether the pairs end in ``AudioAnalysis/waveform``.
    var keepsPairs: Bool {
        if case .keep = self { return true }
        return false
    }
}
