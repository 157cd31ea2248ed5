import CBenchPeer

/// The monotonic wall clock both sides read (the C peer uses the same function), in nanoseconds.
@inline(__always)
public func nowNanoseconds() -> UInt64 {
    kb_now_ns()
}

/// The CPU time of the calling thread, in nanoseconds: the clock of CPU-bound scenarios, which
/// does not count the time the thread spends preempted by other processes.
@inline(__always)
public func cpuNanoseconds() -> UInt64 {
    kb_cpu_ns()
}

/// Keeps a value alive so that the optimiser cannot drop the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
