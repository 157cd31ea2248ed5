/// A token bucket: the per-peer rate limit of PROTOCOL.md rule 9.11 (2000 tokens refilled at
/// 2000 a second; a bundle costs one token per message in it).
///
/// The bucket holds no clock: every call passes the time, so that tests drive it with a
/// virtual ``TimeSource`` and the server reads its clock once per datagram, not once per peer.
/// Time is in nanoseconds from any fixed origin; a time earlier than the last one seen refills
/// nothing. The arithmetic is exact (integers: one token is 10⁹ units, a nanosecond earns
/// `refillPerSecond` units), so a bucket refilled once a second has its token at 1.000 s sharp.
public struct TokenBucket: Sendable, Hashable {
    private static let unitsPerToken: UInt64 = 1_000_000_000

    /// The most tokens the bucket holds (the largest burst it lets through).
    public let capacity: Int
    /// Tokens added per second.
    public let refillPerSecond: Int
    private var units: UInt64
    private var lastRefill: UInt64

    /// A full bucket.
    /// - Parameters:
    ///   - capacity: the largest burst, in tokens (default 2000; at most 10⁹).
    ///   - refillPerSecond: the sustained rate (default 2000; at most 10⁹).
    ///   - now: the current time in nanoseconds.
    public init(capacity: Int = 2000, refillPerSecond: Int = 2000, now: UInt64) {
        self.capacity = min(max(capacity, 0), 1_000_000_000)
        self.refillPerSecond = min(max(refillPerSecond, 0), 1_000_000_000)
        units = UInt64(self.capacity) * TokenBucket.unitsPerToken
        lastRefill = now
    }

    /// The whole tokens available at the last call.
    public var tokens: Int { Int(units / TokenBucket.unitsPerToken) }

    /// Takes `cost` tokens if the bucket holds that many.
    ///
    /// All or nothing: a bundle either passes whole or is dropped whole. A cost larger than the
    /// capacity never passes.
    /// - Parameters:
    ///   - cost: tokens to take (a message costs 1).
    ///   - now: the current time in nanoseconds.
    /// - Returns: whether the tokens were taken.
    public mutating func consume(_ cost: Int = 1, now: UInt64) -> Bool {
        refill(now: now)
        guard cost > 0 else { return true }
        guard cost <= capacity else { return false }
        let needed = UInt64(cost) * TokenBucket.unitsPerToken
        guard units >= needed else { return false }
        units -= needed
        return true
    }

    /// Adds the tokens earned since the last call, up to the capacity.
    public mutating func refill(now: UInt64) {
        guard now > lastRefill else { return }
        let full = UInt64(capacity) * TokenBucket.unitsPerToken
        let missing = full - units
        let rate = UInt64(refillPerSecond)
        let elapsed = now - lastRefill
        lastRefill = now
        // Compare before multiplying: a long idle time times the rate would overflow.
        if rate == 0 { return }
        if elapsed >= missing / rate + 1 {
            units = full
        } else {
            units = min(full, units + elapsed * rate)
        }
    }
}
