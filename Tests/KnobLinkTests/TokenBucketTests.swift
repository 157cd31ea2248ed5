import Synchronization
import Testing

@testable import KnobLink

/// Takes from the bucket outside `#expect`, which cannot capture an `inout` value.
private func take(_ bucket: inout TokenBucket, _ cost: Int = 1, now: UInt64) -> Bool {
    bucket.consume(cost, now: now)
}

private func take(_ bucket: inout TokenBucket, _ cost: Int = 1, source: TokenBucket.TimeSource) -> Bool {
    bucket.consume(cost, source: source)
}

@Suite struct TokenBucketTests {
    /// A clock that moves only when the test says so.
    final class VirtualClock: Sendable {
        private let nanoseconds = Atomic<UInt64>(1_000_000_000)
        var source: TokenBucket.TimeSource { TokenBucket.TimeSource { self.nanoseconds.load(ordering: .relaxed) } }
        func advance(seconds: Double) {
            nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed)
        }
    }

    @Test func burstOfCapacityPassesThenTheRestIsDropped() {
        let clock = VirtualClock()
        var bucket = TokenBucket(source: clock.source)
        var passed = 0
        for _ in 0..<5000 where bucket.consume(source: clock.source) { passed += 1 }
        #expect(passed == 2000)
        #expect(!take(&bucket, source: clock.source))
    }

    @Test func refillsAtTheRate() {
        let clock = VirtualClock()
        var bucket = TokenBucket(source: clock.source)
        #expect(take(&bucket, 2000, source: clock.source))
        clock.advance(seconds: 0.25)
        var passed = 0
        for _ in 0..<1000 where bucket.consume(source: clock.source) { passed += 1 }
        #expect(passed == 500)
        clock.advance(seconds: 10)
        #expect(take(&bucket, 2000, source: clock.source))
        #expect(!take(&bucket, source: clock.source))
    }

    @Test func sustainedRateIsTheRefillRate() {
        let clock = VirtualClock()
        var bucket = TokenBucket(source: clock.source)
        var passed = 0
        // 10 s of a peer sending 10,000 messages a second, one millisecond at a time.
        for _ in 0..<10_000 {
            for _ in 0..<10 where bucket.consume(source: clock.source) { passed += 1 }
            clock.advance(seconds: 0.001)
        }
        #expect(passed >= 2000 + 19_990 && passed <= 2000 + 20_000)
    }

    @Test func bundleCostsOneTokenPerMessageAllOrNothing() {
        var bucket = TokenBucket(capacity: 10, refillPerSecond: 10, now: 0)
        #expect(take(&bucket, 7, now: 0))
        #expect(!take(&bucket, 4, now: 0))
        #expect(bucket.tokens == 3)
        #expect(take(&bucket, 3, now: 0))
        #expect(!take(&bucket, 11, now: 100_000_000_000))
    }

    @Test func timeGoingBackwardsRefillsNothing() {
        var bucket = TokenBucket(capacity: 2, refillPerSecond: 1, now: 5_000_000_000)
        #expect(take(&bucket, 2, now: 5_000_000_000))
        #expect(!take(&bucket, now: 1_000_000_000))
        #expect(take(&bucket, now: 6_000_000_000))
    }

    @Test func oneErrorPerSecond() {
        // The /sys/error limit of rule 9.2 is a bucket of one token refilled once a second.
        var bucket = TokenBucket(capacity: 1, refillPerSecond: 1, now: 0)
        let sent = stride(from: UInt64(0), to: 3_000_000_000, by: 100_000_000).filter { bucket.consume(now: $0) }
        #expect(sent == [0, 1_000_000_000, 2_000_000_000])
    }
}
