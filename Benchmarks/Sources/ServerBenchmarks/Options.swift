import Glibc

/// The command line of `ServerBenchmarks`.
struct Options {
    static let usage = """
        usage: ServerBenchmarks [--quick] [--only latency,throughput,memory] [--latency-sets N] [--sets N]
                                [--knoblink PATH] [--scenario NAME]
          --quick              one round of each scenario instead of three
          --only SECTIONS      the sections to run, separated by commas (all three by default)
          --latency-sets N     sets measured per latency run, after 1000 unmeasured ones (20000)
          --sets N             sets per throughput run at full speed (200000)
          --knoblink PATH      the `knoblink` whose `serve --tree …` is measured for memory
                               (default: the one next to this binary)
          --scenario NAME      with --only throughput: that scenario once, for a profiler
          --help               this text
               ServerBenchmarks --serve-child knoblink|none   (internal) the child process of the memory figure
        """

    var quick = false
    /// Sets measured per latency run (after 1000 unmeasured ones).
    var latencySets = 20_000
    /// Sets per throughput run at full speed.
    var throughputSets = 200_000
    /// `latency`, `throughput`, `memory`: the sections to run (all by default).
    var only: Set<String> = ["latency", "throughput", "memory"]
    /// `knoblink` or `none`: run as a child server for the memory figure instead of benchmarking.
    var serveChild: String?
    /// Runs only the throughput scenario of this name (for profiling).
    var scenario: String?
    /// A `knoblink` binary whose `serve` is measured for memory as well.
    var knoblinkBinary: String?

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        func value(_ name: String) -> String {
            guard let value = iterator.next() else { Self.refuse("\(name) needs a value") }
            return value
        }
        func count(_ name: String) -> Int {
            let text = value(name)
            guard let count = Int(text), count > 0 else { Self.refuse("\(name) needs a positive count, not \(text)") }
            return count
        }
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--latency-sets": latencySets = count(argument)
            case "--sets": throughputSets = count(argument)
            case "--only": only = Set(value(argument).split(separator: ",").map(String.init))
            case "--serve-child": serveChild = value(argument)
            case "--knoblink": knoblinkBinary = value(argument)
            case "--scenario": scenario = value(argument)
            case "--help", "-h":
                print(Self.usage)
                exit(0)
            default: Self.refuse("unknown option \(argument)")
            }
        }
    }

    var rounds: Int { quick ? 1 : 3 }

    /// Stops with `reason` and the usage on standard error, status 2.
    private static func refuse(_ reason: String) -> Never {
        var text = "ServerBenchmarks: \(reason)\n\(usage)\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }  // `stderr` is not concurrency-safe in Swift 6
        exit(2)
    }
}
