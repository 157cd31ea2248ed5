import OSCCore
import Waveform

extension ServerCore {
    /// Sets up the wave stream (PROTOCOL.md section 5) with the configured audio file, or the demo
    /// signal, the first time, and registers its addresses; they stay at the top level whatever
    /// the root (rule 9.9). A tree reload registers the addresses again and keeps the stream: its
    /// source, playhead and visualisers do not belong to the tree.
    /// - Throws: `AudioDecodingError` when the configured audio file cannot be decoded.
    func registerWaveMethods() throws {
        if wave == nil {
            let source: WaveSource
            if let file = configuration.audioFile {
                let name = file.split(separator: "/").last.map(String.init) ?? file
                source = try WaveSource(file: file, name: name)
            } else {
                source = WaveSource.demo
            }
            wave = WaveStream(core: self, source: source)
            stopHandlers.append { $0.wave?.stop() }
            peerRemovedHandlers.append { $0.wave?.peerRemoved($1) }
        }
        try register("/wave/sub") { $0.wave?.subscribeMessage($1, $2) }
        try register("/wave/unsub") { $0.wave?.unsubscribeMessage($1, $2) }
        try register("/wave/progress") { $0.wave?.progressMessage($1, $2) }
        try register("/wave/progress/touch") { $0.wave?.touchMessage($1, $2) }
        try register("/wave/progress/z") { $0.wave?.touchMessage($1, $2) }
        try register("/wave/play") { $0.wave?.transportMessage($1, $2, play: true) }
        try register("/wave/pause") { $0.wave?.transportMessage($1, $2, play: false) }
        try register("/wave/playing") { $0.wave?.playingMessage($1, $2) }
        try register("/wave/level") { $0.wave?.levelMessage($1, $2) }
        try register("/wave/info") { $0.wave?.infoRequest($1, $2) }
        try register("/wave/load") { $0.wave?.loadMessage($1, $2) }
    }

    /// The wave stream's counters for `/sys/stats`.
    func waveStatisticsEntries() -> [(name: String, value: Int)] {
        wave?.statisticsEntries ?? []
    }
}
