/// Receives audiowaveform's min/max pairs as an analysis produces them, in index order.
///
/// An ``AudioAnalyzer`` made with ``WaveformPairHandling/stream(_:)`` calls ``begin(_:)`` once,
/// when it is created, then ``receive(_:firstIndex:)`` with consecutive blocks of indices, the
/// last partial bucket included when the analysis finishes. The calls come from the thread that
/// feeds the analyzer. A sink cannot stop the analysis: one that fails (a full disk) keeps its
/// error and reports it when its owner asks, as ``WaveformFileWriter/finish()`` does.
///
/// ```swift
/// final class Peaks: WaveformPairSink {
///     var loudest: Int16 = 0
///     func begin(_ header: WaveformDataHeader) {}
///     func receive(_ values: UnsafeBufferPointer<Int16>, firstIndex: Int) {
///         for value in values { loudest = max(loudest, value) }
///     }
/// }
/// ```
public protocol WaveformPairSink: AnyObject {
    /// Called once, before any pairs, with what the data's header holds but its length.
    func begin(_ header: WaveformDataHeader)

    /// Called with the pairs of indices `firstIndex ..< firstIndex + values.count / (2 × channels)`.
    ///
    /// - Parameters:
    ///   - values: for each index, for each channel: min, then max, as in ``WaveformData/samples``;
    ///     valid only during the call.
    ///   - firstIndex: the index of the first pair: 0 at first, then the end of the previous block.
    func receive(_ values: UnsafeBufferPointer<Int16>, firstIndex: Int)
}
