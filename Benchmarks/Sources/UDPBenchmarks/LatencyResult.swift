import BenchHarness

/// The percentiles of one series of round trips, and where the two ends ran.
struct LatencyResult {
    var p50: UInt64
    var p99: UInt64
    var p999: UInt64
    var clientCPU: Int32
    var echoCPU: Int32
    /// Context switches of the process per round trip (both ends and any thread in between).
    var switchesPerTrip: Double = 0
    /// Round trips whose reply did not come within 200 ms (resent, not counted in the percentiles).
    var timeouts = 0
    /// The p50 of each round, in run order (filled in by ``median(_:)``).
    var roundP50s: [UInt64] = []

    init(samples: [UInt64], clientCPU: Int32, echoCPU: Int32) {
        let sorted = samples.sorted()
        p50 = Statistics.percentile(sorted, 50)
        p99 = Statistics.percentile(sorted, 99)
        p999 = Statistics.percentile(sorted, 99.9)
        self.clientCPU = clientCPU
        self.echoCPU = echoCPU
    }

    /// The per-percentile median of several series.
    static func median(_ results: [LatencyResult]) -> LatencyResult {
        func middle(_ values: [UInt64]) -> UInt64 { values.sorted()[values.count / 2] }
        var result = results[results.count / 2]
        result.p50 = middle(results.map(\.p50))
        result.p99 = middle(results.map(\.p99))
        result.p999 = middle(results.map(\.p999))
        result.switchesPerTrip = results.map(\.switchesPerTrip).sorted()[results.count / 2]
        result.timeouts = results.map(\.timeouts).reduce(0, +)
        result.roundP50s = results.map(\.p50)
        return result
    }

    private var roundsText: String {
        roundP50s.map { Format.fixed(Double($0) / 1000, decimals: 0) }.joined(separator: "/")
    }

    /// `p50 16.3 µs, p99 31.0 µs, p99.9 44.1 µs`.
    var summary: String {
        "p50 \(Format.micros(p50)), p99 \(Format.micros(p99)), p99.9 \(Format.micros(p999)), "
            + "\(Format.fixed(switchesPerTrip, decimals: 1)) switches/trip"
            + (timeouts > 0 ? ", \(timeouts) replies lost" : "")
            + (roundP50s.count > 1 ? ", p50 by round \(roundsText) µs" : "")
    }
}
