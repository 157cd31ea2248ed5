import Glibc
import Locking
import OSCCore
import Testing

@testable import KnobLink

/// Issue 9, item 2: reading the log handler wrapped it in two more reabstraction thunks each
/// time, so every event ran deeper in the stack than the last, until the UDP reader thread
/// overflowed its stack after about 159,000 events. The depth of the stack inside the handler
/// must not grow with the number of events.
@Suite struct LogHandlerTests {
    /// Where the calling frame is on the stack, and the thread: on one thread, a deeper call has
    /// a lower address.
    static func stackPosition() -> (thread: pthread_t, address: Int) {
        var marker = 0
        let address = withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
        return (pthread_self(), address)
    }

    /// How far (bytes) the stack grew from `first` to `last`, or 0 if they are on different threads.
    static func growth(_ first: (thread: pthread_t, address: Int), _ last: (thread: pthread_t, address: Int)) -> Int {
        pthread_equal(first.thread, last.thread) != 0 ? first.address - last.address : 0
    }

    @Test func theHandlerRunsAtTheSameDepthAfterThousandsOfEvents() async throws {
        let fixture = try ServerFixture { $0.rateLimit = 1_000_000 }
        let depths = Locked<(events: Int, growth: Int, first: (thread: pthread_t, address: Int)?)>((0, 0, nil))
        fixture.server.log = { event in
            guard event.message.hasSuffix("subscribed") else { return }
            let position = Self.stackPosition()
            depths.withLock {
                $0.events += 1
                if let first = $0.first {
                    $0.growth = max($0.growth, Self.growth(first, position))
                } else {
                    $0.first = position
                }
            }
        }
        let peer = try fixture.peer()
        for _ in 0..<5000 {
            peer.send("/sys/subscribe", [.string(peer.url)])
            peer.send("/sys/unsubscribe", [.string(peer.url)])
            if depths.withLock({ $0.events }) > 9000 { break }
        }
        await peer.sync()
        let (events, growth, _) = depths.withLock { $0 }
        #expect(events > 1000)
        // Before the fix, each event ran about a frame deeper: hundreds of KiB after thousands.
        #expect(growth < 4096, "the stack grew \(growth) bytes over \(events) events")
    }

    @Test func aHandlerCalledManyTimesStaysAtItsDepth() throws {
        let handler = LockedHandler<Int>()
        let positions = Locked<[(thread: pthread_t, address: Int)]>([])
        handler.handler = { _ in
            let position = Self.stackPosition()
            positions.withLock { $0.append(position) }
        }
        for index in 0..<20_000 {
            if index == 1 || index == 19_999 {
                handler(index)
            } else {
                // Reading the handler is what wrapped it before.
                _ = handler.handler
            }
        }
        let seen = positions.withLock { $0 }
        try #require(seen.count == 2)
        #expect(Self.growth(seen[0], seen[1]) == 0)
    }
}
