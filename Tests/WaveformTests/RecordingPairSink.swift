import Waveform

/// A sink that keeps every call, to check what an analyzer streams.
final class RecordingPairSink: WaveformPairSink {
    var headers: [WaveformDataHeader] = []
    var values: [Int16] = []
    /// The first index and the number of values of each call.
    var blocks: [(firstIndex: Int, count: Int)] = []

    func begin(_ header: WaveformDataHeader) {
        headers.append(header)
    }

    func receive(_ values: UnsafeBufferPointer<Int16>, firstIndex: Int) {
        blocks.append((firstIndex, values.count))
        self.values.append(contentsOf: values)
    }
}
