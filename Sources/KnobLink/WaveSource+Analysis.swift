import Waveform

extension WaveSource {
    /// Decodes `path` in one pass (on the calling thread) and keeps its amplitude summary; the
    /// min/max pairs are not kept, since bars and levels come from the summary alone. Only a
    /// regular file is opened, so that a FIFO cannot hold the loader until someone writes to it.
    /// - Throws: `AudioDecodingError` naming the file and the reason.
    init(file path: String, name: String) throws(AudioDecodingError) {
        self.init(name: name, analysis: try AudioAnalysis(contentsOf: path, pairs: .discard, regularFileOnly: true))
    }

    /// A source from an analysis already made.
    init(name: String, analysis: AudioAnalysis) {
        let summary = analysis.summary
        self.init(
            name: name, durationSeconds: analysis.durationSeconds, sampleRate: analysis.sampleRate,
            channels: analysis.channels,
            bars: { count, reduction, normalization in
                summary.bars(count: count, reduction: reduction, normalization: normalization)
            },
            peak: { from, to in summary.peak(fromSeconds: from, toSeconds: to) })
    }

    /// The generated demo signal (``WaveDemoSignal``), so that the stream works with no file;
    /// made once per process, on first use.
    static let demo = WaveSource(name: WaveDemoSignal.name, analysis: WaveDemoSignal.analysis())
}
