import BenchHarness

/// Percentiles of one series of set → echo (or ping → pong) times.
struct EchoLatency {
    var p50: UInt64
    var p99: UInt64
    var p999: UInt64
    /// Sets whose echo never came within 200 ms.
    var lost: Int
    /// Context switches of the whole process (peers and server) per set, warm-up included.
    var switchesPerSet = 0.0
    /// The p50 of each round (filled in by ``median(_:)``).
    var roundP50s: [UInt64] = []

    init(samples: ArraySlice<UInt64>, lost: Int) {
        precondition(!samples.isEmpty, "no echo at all")
        let sorted = samples.sorted()
        p50 = Statistics.percentile(sorted, 50)
        p99 = Statistics.percentile(sorted, 99)
        p999 = Statistics.percentile(sorted, 99.9)
        self.lost = lost
    }

    /// The per-percentile median over rounds; losses are summed.
    static func median(_ results: [EchoLatency]) -> EchoLatency {
        func middle(_ values: [UInt64]) -> UInt64 { values.sorted()[values.count / 2] }
        var result = results[0]
        result.p50 = middle(results.map(\.p50))
        result.p99 = middle(results.map(\.p99))
        result.p999 = middle(results.map(\.p999))
        result.lost = results.map(\.lost).reduce(0, +)
        result.switchesPerSet = Statistics.median(results.map(\.switchesPerSet))
        result.roundP50s = results.map(\.p50)
        return result
    }

    var summary: String {
        let rounds = roundP50s.map { Format.fixed(Double($0) / 1000, decimals: 0) }.joined(separator: "/")
        return "p50 \(Format.micros(p50)), p99 \(Format.micros(p99)), p99.9 \(Format.micros(p999)), "
            + "\(Format.fixed(switchesPerSet, decimals: 1)) switches/set"
            + (lost > 0 ? ", \(lost) echoes lost" : "") + (roundP50s.count > 1 ? ", p50 by round \(rounds) µs" : "")
    }
}
