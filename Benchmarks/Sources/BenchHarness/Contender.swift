/// One side of a comparison: a name and a loop that runs a given number of iterations and returns
/// the nanoseconds it took (the loop times itself so that nothing but the work is inside the interval).
public struct Contender {
    /// The name printed in the report (`KnobLink`, `liblo`, `raw`).
    public let name: String
    /// Runs the scenario `iterations` times and returns the elapsed nanoseconds.
    public let run: (Int) -> UInt64

    /// Creates a contender from its name and its timed loop.
    public init(_ name: String, run: @escaping (Int) -> UInt64) {
        self.name = name
        self.run = run
    }

    /// A contender whose loop body is timed here, in CPU time, around `iterations` calls of `body`.
    public static func timing(_ name: String, _ body: @escaping () -> Void) -> Contender {
        Contender(name) { iterations in
            let start = cpuNanoseconds()
            for _ in 0..<iterations { body() }
            return cpuNanoseconds() - start
        }
    }
}
