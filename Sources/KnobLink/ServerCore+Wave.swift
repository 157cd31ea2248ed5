import OSCCore
import Waveform

extension ServerCore {
    /// Sets up the wave stream (PROTOCOL.md section 5) with the configured audio file, or the demo
    /// signal, and registers its addresses; they stay at the top level whatever the root (rule 9.9).
    /// - Throws: `AudioDecodingError` when the configured audio file cannot be decoded.
    func registerWaveMethods() throws {
        let source: WaveSource
        if let file = configuration.audioFile {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            source = try WaveSource(file: file, name: name)
        } else {
            source = WaveSource.demo
        }
        let stream = WaveStream(core: self, source: source)
        wave = stream
        try dispatcher.register("/wave/sub") { [unowned stream] in stream.subscribeMessage($0) }
        try dispatcher.register("/wave/unsub") { [unowned stream] in stream.unsubscribeMessage($0) }
        try dispatcher.register("/wave/progress") { [unowned stream] in stream.progressMessage($0) }
        try dispatcher.register("/wave/progress/touch") { [unowned stream] in stream.touchMessage($0) }
        try dispatcher.register("/wave/progress/z") { [unowned stream] in stream.touchMessage($0) }
        try dispatcher.register("/wave/play") { [unowned stream] in stream.transportMessage($0, play: true) }
        try dispatcher.register("/wave/pause") { [unowned stream] in stream.transportMessage($0, play: false) }
        try dispatcher.register("/wave/playing") { [unowned stream] in stream.playingMessage($0) }
        try dispatcher.register("/wave/level") { [unowned stream] in stream.levelMessage($0) }
        try dispatcher.register("/wave/info") { [unowned stream] in stream.infoRequest($0) }
        try dispatcher.register("/wave/load") { [unowned stream] in stream.loadMessage($0) }
        stopHandlers.append { [unowned stream] in stream.stop() }
        peerRemovedHandlers.append { [unowned stream] peer in stream.peerRemoved(peer) }
    }

    /// The wave stream's counters for `/sys/stats`.
    func waveStatisticsEntries() -> [(name: String, value: Int)] {
        wave?.statisticsEntries ?? []
    }
}
