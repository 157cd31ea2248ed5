/// The command line of `ServerBenchmarks` (see main.swift).
struct Options {
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
            guard let value = iterator.next() else { fatalError("\(name) needs a value") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--latency-sets": latencySets = Int(value(argument))!
            case "--sets": throughputSets = Int(value(argument))!
            case "--only": only = Set(value(argument).split(separator: ",").map(String.init))
            case "--serve-child": serveChild = value(argument)
            case "--knoblink": knoblinkBinary = value(argument)
            case "--scenario": scenario = value(argument)
            default: fatalError("unknown option \(argument)")
            }
        }
    }

    var rounds: Int { quick ? 1 : 3 }
}
