/// Order statistics over samples; benchmarks report medians and percentiles, never means.
public enum Statistics {
    /// The median of `values` (the mean of the two middle values for an even count).
    public static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median of no values")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile `p` (0...100) of already sorted samples.
    public static func percentile(_ sorted: [UInt64], _ p: Double) -> UInt64 {
        precondition(!sorted.isEmpty, "percentile of no values")
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
