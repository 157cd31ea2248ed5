import Dispatch

extension TokenBucket {
    /// Where the time given to a bucket comes from: the monotonic clock, or a virtual one in tests.
    public struct TimeSource: Sendable {
        /// Returns the current time in nanoseconds from a fixed origin.
        public let now: @Sendable () -> UInt64

        /// A source that calls `now`.
        public init(now: @escaping @Sendable () -> UInt64) {
            self.now = now
        }

        /// The system's monotonic clock (unaffected by changes of the wall clock).
        public static let monotonic = TimeSource { DispatchTime.now().uptimeNanoseconds }
    }

    /// A full bucket that reads the time from `source`.
    public init(capacity: Int = 2000, refillPerSecond: Int = 2000, source: TimeSource) {
        self.init(capacity: capacity, refillPerSecond: refillPerSecond, now: source.now())
    }

    /// Takes `cost` tokens if available, reading the time from `source`.
    public mutating func consume(_ cost: Int = 1, source: TimeSource) -> Bool {
        consume(cost, now: source.now())
    }
}
