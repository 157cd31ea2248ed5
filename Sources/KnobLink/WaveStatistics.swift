/// The wave stream's counters, shown by `/sys/stats` with the server's own.
struct WaveStatistics {
    var subscriberCap = 0
    var overviews = 0
    var scrubs = 0
    var loads = 0
    var loadsRefused = 0
    var loadErrors = 0
    var deadSubscribers = 0

    /// The counters by name, in a fixed order.
    var entries: [(name: String, value: Int)] {
        [
            ("waveSubscriberCap", subscriberCap), ("waveOverviews", overviews), ("waveScrubs", scrubs),
            ("waveLoads", loads), ("waveLoadsRefused", loadsRefused), ("waveLoadErrors", loadErrors),
            ("waveDeadSubscribers", deadSubscribers),
        ]
    }
}
