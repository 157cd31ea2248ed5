import CBenchPeer

/// The monotonic clock both sides read (the C peer uses the same function), in nanoseconds.
@inline(__always)
public func nowNanoseconds() -> UInt64 {
    kb_now_ns()
}

/// Keeps a value alive so that the optimiser cannot drop the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
