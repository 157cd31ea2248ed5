/// Runs contenders against each other in interleaved rounds and reports each one's median rate.
///
/// Machines here are shared and noisy, so contenders never run in separate phases: each round
/// runs every contender once, the order alternating from round to round, and the rate of each is
/// the median over rounds. The iteration count is calibrated once per contender so that one run
/// lasts about `runNanoseconds`.
public struct Rounds {
    /// The number of interleaved rounds.
    public var rounds: Int
    /// The target duration of one contender's run within a round.
    public var runNanoseconds: UInt64
    /// When set, every contender runs exactly this many iterations, once (for instruction counts
    /// under callgrind, where time-boxed runs would vary).
    public var fixedIterations: Int?

    /// Creates a schedule of `rounds` rounds of runs lasting about `runMilliseconds` each.
    public init(rounds: Int = 7, runMilliseconds: UInt64 = 40) {
        self.rounds = rounds
        self.runNanoseconds = runMilliseconds * 1_000_000
    }

    /// Returns the median rate (operations per second) of each contender, in the given order.
    public func rates(_ contenders: [Contender]) -> [Double] {
        samples(contenders).map(Statistics.median)
    }

    /// The median over rounds of `a[i] / b[i]`: the ratio of two contenders measured in the same round,
    /// which a change of load between rounds does not skew.
    public static func pairedRatio(_ a: [Double], _ b: [Double]) -> Double {
        Statistics.median(zip(a, b).map { $0 / $1 })
    }

    /// Returns every round's rate (operations per second) of each contender, in the given order.
    public func samples(_ contenders: [Contender]) -> [[Double]] {
        if let fixed = fixedIterations {
            return contenders.map { [Double(fixed) * 1e9 / Double(max($0.run(fixed), 1))] }
        }
        let iterations = contenders.map(calibrate)
        var samples = Array(repeating: [Double](), count: contenders.count)
        for round in 0..<rounds {
            let order = round % 2 == 0 ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                let elapsed = max(contenders[index].run(iterations[index]), 1)
                samples[index].append(Double(iterations[index]) * 1e9 / Double(elapsed))
            }
        }
        return samples
    }

    private func calibrate(_ contender: Contender) -> Int {
        var iterations = 16
        while true {
            let elapsed = contender.run(iterations)
            if elapsed >= runNanoseconds / 8 || iterations >= 1 << 30 {
                let scaled = Double(iterations) * Double(runNanoseconds) / Double(max(elapsed, 1))
                return max(Int(scaled), 1)
            }
            iterations *= 4
        }
    }
}
